package smm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"smm.local/smm"
)

// problemCode is the code of an APIError of the given status, or "" if err is not one.
func problemCode(err error, status int) string {
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != status {
		return ""
	}
	return apiErr.Problem.Code
}

// ownerAndMember is the daemon under test, a client of the daemon's owner, and one of another user who becomes a member.
func ownerAndMember(t *testing.T) (smm.Live, *smm.Client, *smm.Client, *smm.User) {
	live := smm.LiveEnv(t)
	member := live.Member(t)
	me, err := member.Me(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return live, live.Client(t), member, me
}

// pendingPost is a workspace requiring approval where the member is an editor, with a feed
// account, and a post the member wrote there at `at`, waiting for approval. The workspace goes
// when the test ends.
func pendingPost(t *testing.T, c, member *smm.Client, me *smm.User, name, content string, at time.Time) (*smm.Workspace, *smm.Post) {
	t.Helper()
	ctx := context.Background()
	team, err := c.Workspaces.Create(ctx, smm.WorkspaceCreateParams{Name: name, ApprovalRequired: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{UserID: me.ID, Role: "editor"}); err != nil {
		t.Fatal(err)
	}
	brand, err := c.Accounts.Create(ctx, smm.AccountCreateParams{Name: name + " brand", WorkspaceID: team.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Accounts.Connect(ctx, brand.ID, smm.ConnectionCreateParams{Platform: "feed"}); err != nil {
		t.Fatal(err)
	}
	post, err := member.Posts.Create(ctx, smm.PostCreateParams{AccountID: brand.ID, Content: content, Platforms: []string{"feed"}, ScheduledAt: at})
	if err != nil || post.Status != "pending_approval" {
		t.Fatalf("an editor's post: %+v, %v", post, err)
	}
	t.Cleanup(func() {
		if err := c.Accounts.Delete(ctx, brand.ID, smm.AccountDeleteParams{CancelPosts: true}); err != nil {
			t.Error(err)
		}
		if err := c.Workspaces.Delete(ctx, team.ID); err != nil {
			t.Error(err)
		}
	})
	return team, post
}

func TestWorkspacesMembersAndRoles(t *testing.T) {
	ctx := context.Background()
	live, c, member, me := ownerAndMember(t)

	team, err := c.Workspaces.Create(ctx, smm.WorkspaceCreateParams{Name: "Go team", ApprovalRequired: true, Timezone: "Europe/Berlin"})
	if err != nil || team.Role != "owner" || team.Personal || !team.ApprovalRequired || team.Timezone != "Europe/Berlin" {
		t.Fatalf("Create: %+v, %v", team, err)
	}
	added, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{Email: live.MemberEmail, Role: "viewer"})
	if err != nil || added.UserID != me.ID || added.Role != "viewer" {
		t.Fatalf("AddMember: %+v, %v", added, err)
	}
	if _, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{UserID: me.ID, Role: "admin"}); problemCode(err, 409) != "already_member" {
		t.Fatalf("adding a member twice: %v", err)
	}
	if _, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{UserID: me.ID, Role: "boss"}); problemCode(err, 422) != "validation_error" {
		t.Fatalf("an unknown role: %v", err)
	}
	theirs, err := member.Workspaces.List(ctx, smm.ListParams{}).All(ctx)
	if err != nil || len(theirs) != 2 {
		t.Fatalf("the member's workspaces: %+v, %v", theirs, err)
	}
	for _, w := range theirs {
		if w.ID == team.ID && w.Role != "viewer" {
			t.Fatalf("the member's role: %+v", w)
		}
	}

	// A viewer reads; managing accounts needs admin or owner.
	if _, err := member.Accounts.Create(ctx, smm.AccountCreateParams{Name: "Not mine to make", WorkspaceID: team.ID}); problemCode(err, 403) != "forbidden" {
		t.Fatalf("a viewer creating an account: %v", err)
	}
	if _, err := c.Workspaces.SetRole(ctx, team.ID, me.ID, "admin"); err != nil {
		t.Fatal(err)
	}
	account, err := member.Accounts.Create(ctx, smm.AccountCreateParams{Name: "Team brand", WorkspaceID: team.ID})
	if err != nil || account.WorkspaceID != team.ID {
		t.Fatalf("an admin creating an account: %+v, %v", account, err)
	}
	inTeam, err := c.Accounts.List(ctx, smm.AccountListParams{WorkspaceID: team.ID}).All(ctx)
	if err != nil || len(inTeam) != 1 || inTeam[0].ID != account.ID {
		t.Fatalf("the team's accounts: %+v, %v", inTeam, err)
	}
	members, err := c.Workspaces.Members(ctx, team.ID, smm.ListParams{Limit: 1}).All(ctx)
	if err != nil || len(members) != 2 {
		t.Fatalf("Members: %+v, %v", members, err)
	}

	// Removed, the member loses access at once.
	if err := c.Workspaces.RemoveMember(ctx, team.ID, me.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := member.Accounts.Get(ctx, account.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a removed member reading the account: %v", err)
	}
	if _, err := member.Workspaces.Get(ctx, team.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a removed member reading the workspace: %v", err)
	}
	owner, err := c.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.RemoveMember(ctx, team.ID, owner.ID); problemCode(err, 409) != "last_owner" {
		t.Fatalf("removing the last owner: %v", err)
	}
	approval := false
	renamed, err := c.Workspaces.Update(ctx, team.ID, smm.WorkspaceUpdateParams{Name: "Go team (old)", ApprovalRequired: &approval})
	if err != nil || renamed.Name != "Go team (old)" || renamed.ApprovalRequired {
		t.Fatalf("Update: %+v, %v", renamed, err)
	}
	if err := c.Workspaces.Delete(ctx, team.ID); problemCode(err, 409) != "workspace_has_accounts" {
		t.Fatalf("deleting a workspace with accounts: %v", err)
	}
	if err := c.Accounts.Delete(ctx, account.ID, smm.AccountDeleteParams{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.Delete(ctx, team.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Workspaces.Get(ctx, team.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a deleted workspace: %v", err)
	}
}

func TestApprovalCommentsTheAuditLogAndTheWorkspacesPostsWebhooksAndAnalytics(t *testing.T) {
	ctx := context.Background()
	live, c, member, me := ownerAndMember(t)
	boss, err := c.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2099, 1, 1, 9, 0, 0, 0, time.UTC)
	team, post := pendingPost(t, c, member, me, "Go approvals", "Please check", at)
	if _, err := member.Posts.Approve(ctx, post.ID, ""); problemCode(err, 403) != "forbidden" {
		t.Fatalf("an editor approving: %v", err)
	}
	if rejected, err := c.Posts.Reject(ctx, post.ID, "Add the link"); err != nil || rejected.Status != "rejected" {
		t.Fatalf("Reject: %+v, %v", rejected, err)
	}
	comment, err := member.Posts.AddComment(ctx, post.ID, "Link added")
	if err != nil || comment.Author.Type != "user" || *comment.Author.Name != me.Name || comment.Decision != nil {
		t.Fatalf("AddComment: %+v, %v", comment, err)
	}
	content := "Please check: https://example.com"
	if edited, err := member.Posts.Update(ctx, post.ID, smm.PostUpdateParams{Content: &content}); err != nil || edited.Status != "pending_approval" {
		t.Fatalf("an edit of a rejected post: %+v, %v", edited, err)
	}
	approved, err := c.Posts.Approve(ctx, post.ID, "Thanks")
	if err != nil || approved.Status != "scheduled" || !approved.ScheduledAt.Equal(at) {
		t.Fatalf("Approve: %+v, %v", approved, err)
	}
	_, err = c.Posts.Approve(ctx, post.ID, "")
	var apiErr *smm.APIError
	if problemCode(err, 409) != "post_not_pending" || !errors.As(err, &apiErr) || string(apiErr.Problem.Extensions["post_status"]) != `"scheduled"` {
		t.Fatalf("approving again: %v", err)
	}

	comments, err := member.Posts.Comments(ctx, post.ID, smm.ListParams{Limit: 1}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, c := range comments {
		decision := ""
		if c.Decision != nil {
			decision = *c.Decision
		}
		said = append(said, *c.Author.Name+": "+c.Body+" "+decision)
	}
	want := []string{boss.Name + ": Add the link rejected", me.Name + ": Link added ", boss.Name + ": Thanks approved"}
	if strings.Join(said, "|") != strings.Join(want, "|") {
		t.Fatalf("Comments: %q", said)
	}

	entries, err := c.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{Kind: "post.*", Limit: 2}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "post.approved post.approval_requested post.updated post.commented post.rejected post.approval_requested" {
		t.Fatalf("AuditLog kinds: %s", got)
	}
	decided, err := c.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{Kind: "post.approved", From: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}).All(ctx)
	if err != nil || len(decided) != 1 || decided[0].Actor.UserID != boss.ID || decided[0].Object.ID != post.ID {
		t.Fatalf("AuditLog of approvals: %+v, %v", decided, err)
	}
	if _, err := member.Workspaces.AuditLog(ctx, team.ID, smm.AuditLogParams{}).All(ctx); problemCode(err, 403) != "forbidden" {
		t.Fatalf("an editor reading the audit log: %v", err)
	}

	// The workspace's posts and analytics are its members', its webhooks its admins'.
	if listed, err := member.Posts.List(ctx, smm.PostListParams{WorkspaceID: team.ID}).All(ctx); err != nil || len(listed) != 1 || listed[0].ID != post.ID {
		t.Fatalf("the workspace's posts: %+v, %v", listed, err)
	}
	report, err := member.Analytics.Get(ctx, smm.AnalyticsParams{WorkspaceID: team.ID, From: "2099-01-01", To: "2099-01-01"})
	if err != nil || report.Totals.PostsScheduled != 1 {
		t.Fatalf("the workspace's analytics: %+v, %v", report, err)
	}
	if mine, err := member.Analytics.Get(ctx, smm.AnalyticsParams{From: "2099-01-01", To: "2099-01-01"}); err != nil || mine.Totals.PostsScheduled != 0 {
		t.Fatalf("the member's personal analytics: %+v, %v", mine, err)
	}
	hook := smm.WebhookCreateParams{URL: live.ReceiverURL, Events: []string{"webhook.test"}, WorkspaceID: team.ID}
	if _, err := member.Webhooks.Create(ctx, hook); problemCode(err, 403) != "forbidden" {
		t.Fatalf("an editor making a webhook: %v", err)
	}
	made, err := c.Webhooks.Create(ctx, hook)
	if err != nil || made.WorkspaceID != team.ID {
		t.Fatalf("a webhook in the workspace: %+v, %v", made, err)
	}
	if hooks, err := c.Webhooks.List(ctx, smm.WebhookListParams{WorkspaceID: team.ID}).All(ctx); err != nil || len(hooks) != 1 || hooks[0].ID != made.ID {
		t.Fatalf("the workspace's webhooks: %+v, %v", hooks, err)
	}
}
