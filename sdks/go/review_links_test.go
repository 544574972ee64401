package smm_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"smm.local/smm"
)

// fetchPage GETs a review link's URL as a reviewer's browser would: plain HTTPS, no key.
func fetchPage(t *testing.T, live smm.Live, url string) (int, http.Header, string) {
	t.Helper()
	pem, err := os.ReadFile(live.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	browser := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}, Timeout: 10 * time.Second}
	res, err := browser.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(body)
}

func TestReviewLinksOpenThePageUntilRevoked(t *testing.T) {
	ctx := context.Background()
	live, c, member, me := ownerAndMember(t)
	team, post := pendingPost(t, c, member, me, "Go review", "Go <b>launch</b> day", time.Date(2099, 1, 1, 9, 0, 0, 0, time.UTC))

	// A link approves in an admin's stead: an editor may not make one for their own post.
	if _, err := member.Posts.CreateReviewLink(ctx, post.ID, 0); problemCode(err, 403) != "forbidden" {
		t.Fatalf("an editor making a review link: %v", err)
	}
	if _, err := c.Posts.CreateReviewLink(ctx, post.ID, 30*time.Second); problemCode(err, 422) != "validation_error" {
		t.Fatalf("a link for 30 seconds: %v", err)
	}
	hour, err := c.Posts.CreateReviewLink(ctx, post.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	week, err := c.Posts.CreateReviewLink(ctx, post.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	origin := strings.TrimSuffix(live.URL, "/v1")
	for _, l := range []*smm.ReviewLink{hour, week} {
		if !strings.HasPrefix(l.ID, "rvl_") || !strings.HasPrefix(l.URL, origin+"/review/") || l.State != "active" || l.PostID != post.ID || l.CreatedBy.Type != "user" {
			t.Fatalf("CreateReviewLink: %+v", l)
		}
	}
	if got := hour.ExpiresAt.Sub(hour.CreatedAt); got != time.Hour {
		t.Fatalf("a link for an hour lasts %s", got)
	}
	if got := week.ExpiresAt.Sub(week.CreatedAt); got != 7*24*time.Hour {
		t.Fatalf("a link by default lasts %s, not a week", got)
	}

	// The URL is a page anyone holding it opens, without a key: the post as it will go out, escaped, and the form.
	status, header, page := fetchPage(t, live, hour.URL)
	if status != 200 || !strings.HasPrefix(header.Get("Content-Type"), "text/html") || !strings.Contains(header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("the review page: %d %v", status, header)
	}
	if !strings.Contains(page, "Go &#60;b&#62;launch&#60;/b&#62; day") || strings.Contains(page, "<b>launch</b>") || !strings.Contains(page, `name="csrf"`) {
		t.Fatalf("the review page does not show the post, escaped, with its form:\n%s", page)
	}

	// Revoked (a second later on the daemon's clock), a link opens nothing, at once; the other still works.
	if err := live.Advance(ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.Posts.RevokeReviewLink(ctx, post.ID, hour.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.Posts.RevokeReviewLink(ctx, post.ID, "rvl_nope"); problemCode(err, 404) != "not_found" {
		t.Fatalf("revoking an unknown link: %v", err)
	}
	status, _, page = fetchPage(t, live, hour.URL)
	if status != 410 || !strings.Contains(page, "This link was revoked") || strings.Contains(page, "launch") {
		t.Fatalf("a revoked link: %d\n%s", status, page)
	}
	if status, _, _ := fetchPage(t, live, week.URL); status != 200 {
		t.Fatalf("the link not revoked: %d", status)
	}

	links, err := c.Posts.ReviewLinks(ctx, post.ID).All(ctx)
	if err != nil || len(links) != 2 {
		t.Fatalf("ReviewLinks: %+v, %v", links, err)
	}
	if links[0].ID != hour.ID || links[0].State != "revoked" || links[0].RevokedAt == nil || links[0].URL != "" {
		t.Fatalf("the revoked link, listed: %+v", links[0])
	}
	if links[1].ID != week.ID || links[1].State != "active" || links[1].RevokedAt != nil || links[1].URL != "" {
		t.Fatalf("the active link, listed: %+v", links[1])
	}
	if _, err := member.Posts.ReviewLinks(ctx, post.ID).All(ctx); problemCode(err, 403) != "forbidden" {
		t.Fatalf("an editor listing review links: %v", err)
	}

	// Both are in the audit log, and its time range keeps the one or the other.
	kinds := "post.review_link_created,post.review_link_revoked"
	entries, err := c.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{Kind: kinds, Limit: 1}).All(ctx)
	if err != nil || len(entries) != 3 || entries[0].Kind != "post.review_link_revoked" || entries[0].Object.ID != post.ID {
		t.Fatalf("the audit log of review links: %+v, %v", entries, err)
	}
	revokedAt := *links[0].RevokedAt
	if before, err := c.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{Kind: kinds, To: revokedAt}).All(ctx); err != nil || len(before) != 2 || before[0].Kind != "post.review_link_created" {
		t.Fatalf("the audit log before the revocation: %+v, %v", before, err)
	}
	if since, err := c.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{Kind: kinds, From: revokedAt}).All(ctx); err != nil || len(since) != 1 || since[0].Kind != "post.review_link_revoked" {
		t.Fatalf("the audit log from the revocation: %+v, %v", since, err)
	}

}
