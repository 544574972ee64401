package smm

import (
	"context"
	"net/url"
	"time"
)

// Actor is who did something: a user (Type "user", with UserID and the KeyID they used), someone
// through a review link (Type "review_link", with ReviewLinkID and the Name they gave), or smm
// itself (Type "system").
type Actor struct {
	Type         string  `json:"type"`
	Name         *string `json:"name"`
	UserID       string  `json:"user_id,omitempty"`
	KeyID        *string `json:"key_id,omitempty"`
	ReviewLinkID string  `json:"review_link_id,omitempty"`
}

// Comment is a comment on a post: a member's, a reviewer's, or the one that came with a decision.
type Comment struct {
	ID     string `json:"id"`
	PostID string `json:"post_id"`
	Author Actor  `json:"author"`
	Body   string `json:"body"`
	// Decision is "approved" or "rejected" on the comment of a decision, else nil.
	Decision  *string   `json:"decision"`
	CreatedAt time.Time `json:"created_at"`
}

// AuditObject is what an audit entry's change was done to.
type AuditObject struct {
	// Type is post, account, member, workspace, key or webhook.
	Type string `json:"type"`
	ID   string `json:"id"`
}

// AuditEntry is one thing done in a workspace: its Kind (an event type), who did it, to what, and when.
type AuditEntry struct {
	ID        string      `json:"id"`
	Kind      string      `json:"kind"`
	Actor     Actor       `json:"actor"`
	Object    AuditObject `json:"object"`
	Summary   string      `json:"summary"`
	CreatedAt time.Time   `json:"created_at"`
}

// AuditLogParams filters a workspace's audit log.
type AuditLogParams struct {
	// Kind is event types separated by commas; "post.*" is a family.
	Kind string
	// From (inclusive) and To (exclusive); zero: unbounded.
	From, To time.Time
	Limit    int
}

// Approve approves a post waiting for approval (admins and owners): it is scheduled, or published
// at once if its time has passed. A comment ("" for none) is kept with the post, as the approval's
// (POST /v1/posts/{id}/approve).
func (s *PostsService) Approve(ctx context.Context, id, comment string) (*Post, error) {
	body := map[string]any{}
	if comment != "" {
		body["comment"] = comment
	}
	return s.c.post(ctx, request{method: "POST", path: pathOf("/v1/posts/{id}/approve", id), body: body})
}

// Reject asks for changes to a post waiting for approval (admins and owners); comment says what.
// The post is rejected until an edit makes it wait again (POST /v1/posts/{id}/reject).
func (s *PostsService) Reject(ctx context.Context, id, comment string) (*Post, error) {
	return s.c.post(ctx, request{method: "POST", path: pathOf("/v1/posts/{id}/reject", id), body: map[string]any{"comment": comment}})
}

// Comments walks a post's comments, oldest first (GET /v1/posts/{id}/comments).
func (s *PostsService) Comments(ctx context.Context, id string, p ListParams) *Pager[Comment] {
	return newPager[Comment](s.c, pathOf("/v1/posts/{id}/comments", id), url.Values{}, p.Limit)
}

// AddComment comments on a post; any member may, viewers too (POST /v1/posts/{id}/comments).
func (s *PostsService) AddComment(ctx context.Context, id, body string) (*Comment, error) {
	return call[Comment](ctx, s.c, request{method: "POST", path: pathOf("/v1/posts/{id}/comments", id), body: map[string]any{"body": body}})
}

// AuditLog walks what was done in a workspace, by whom, newest first; owners and admins only
// (GET /v1/workspaces/{id}/audit-log).
func (s *WorkspacesService) AuditLog(ctx context.Context, id string, p AuditLogParams) *Pager[AuditEntry] {
	q := url.Values{}
	setIf(q, "kind", p.Kind)
	if !p.From.IsZero() {
		q.Set("from", timestamp(p.From))
	}
	if !p.To.IsZero() {
		q.Set("to", timestamp(p.To))
	}
	return newPager[AuditEntry](s.c, pathOf("/v1/workspaces/{id}/audit-log", id), q, p.Limit)
}
