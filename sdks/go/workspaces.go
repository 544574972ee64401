package smm

import (
	"context"
	"net/url"
	"time"
)

// Workspace is a workspace you belong to: accounts, posts and webhooks live in one, and its
// members act on them by their Role.
type Workspace struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// ApprovalRequired makes an editor's posts wait (status pending_approval) for an admin or owner.
	ApprovalRequired bool `json:"approval_required"`
	// Personal is the workspace every user has for themselves: never shared, never deleted.
	Personal bool `json:"personal"`
	// Timezone is the IANA zone its queue slots and series keep wall-clock time in.
	Timezone string `json:"timezone"`
	// Role is yours in it: owner, admin, editor or viewer.
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

// Member is a user of a workspace, with their role.
type Member struct {
	UserID    string    `json:"user_id"`
	Name      string    `json:"name"`
	Email     *string   `json:"email"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

// WorkspaceCreateParams is a new workspace; you are its owner.
type WorkspaceCreateParams struct {
	Name             string
	ApprovalRequired bool
	// Timezone defaults to yours.
	Timezone       string
	IdempotencyKey string
}

// WorkspaceUpdateParams changes what it names (nil or "": unchanged).
type WorkspaceUpdateParams struct {
	Name             string
	ApprovalRequired *bool
	Timezone         string
}

// MemberAddParams adds a user, by UserID or by Email, with a role.
type MemberAddParams struct {
	UserID, Email string
	// Role is owner, admin, editor or viewer.
	Role           string
	IdempotencyKey string
}

// WorkspacesService is /v1/workspaces.
type WorkspacesService struct{ c *Client }

// List walks the workspaces you belong to (GET /v1/workspaces).
func (s *WorkspacesService) List(ctx context.Context, p ListParams) *Pager[Workspace] {
	return newPager[Workspace](s.c, "/v1/workspaces", nil, p.Limit)
}

// Create makes a workspace to share accounts (POST /v1/workspaces).
func (s *WorkspacesService) Create(ctx context.Context, p WorkspaceCreateParams) (*Workspace, error) {
	body := map[string]any{"name": p.Name, "approval_required": p.ApprovalRequired}
	if p.Timezone != "" {
		body["timezone"] = p.Timezone
	}
	return call[Workspace](ctx, s.c, request{method: "POST", path: "/v1/workspaces", body: body, idempotencyKey: p.IdempotencyKey})
}

// Get reads a workspace you belong to (GET /v1/workspaces/{id}).
func (s *WorkspacesService) Get(ctx context.Context, id string) (*Workspace, error) {
	return call[Workspace](ctx, s.c, request{method: "GET", path: pathOf("/v1/workspaces/{id}", id)})
}

// Update renames it, requires approval, or changes its zone (PATCH /v1/workspaces/{id}).
func (s *WorkspacesService) Update(ctx context.Context, id string, p WorkspaceUpdateParams) (*Workspace, error) {
	body := map[string]any{}
	if p.Name != "" {
		body["name"] = p.Name
	}
	if p.ApprovalRequired != nil {
		body["approval_required"] = *p.ApprovalRequired
	}
	if p.Timezone != "" {
		body["timezone"] = p.Timezone
	}
	return call[Workspace](ctx, s.c, request{method: "PATCH", path: pathOf("/v1/workspaces/{id}", id), body: body})
}

// Delete removes a shared workspace that has no accounts left (DELETE /v1/workspaces/{id}).
func (s *WorkspacesService) Delete(ctx context.Context, id string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/workspaces/{id}", id)})
	return err
}

// Members walks a workspace's members (GET /v1/workspaces/{id}/members).
func (s *WorkspacesService) Members(ctx context.Context, id string, p ListParams) *Pager[Member] {
	return newPager[Member](s.c, pathOf("/v1/workspaces/{id}/members", id), url.Values{}, p.Limit)
}

// AddMember adds a user with a role (POST /v1/workspaces/{id}/members).
func (s *WorkspacesService) AddMember(ctx context.Context, id string, p MemberAddParams) (*Member, error) {
	body := map[string]any{"role": p.Role}
	if p.UserID != "" {
		body["user_id"] = p.UserID
	}
	if p.Email != "" {
		body["email"] = p.Email
	}
	return call[Member](ctx, s.c, request{method: "POST", path: pathOf("/v1/workspaces/{id}/members", id), body: body, idempotencyKey: p.IdempotencyKey})
}

// SetRole changes a member's role (PATCH /v1/workspaces/{id}/members/{user_id}).
func (s *WorkspacesService) SetRole(ctx context.Context, id, userID, role string) (*Member, error) {
	return call[Member](ctx, s.c, request{method: "PATCH", path: pathOf("/v1/workspaces/{id}/members/{user_id}", id, userID), body: map[string]any{"role": role}})
}

// RemoveMember removes a member, who loses access at once; your own id leaves (DELETE /v1/workspaces/{id}/members/{user_id}).
func (s *WorkspacesService) RemoveMember(ctx context.Context, id, userID string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/workspaces/{id}/members/{user_id}", id, userID)})
	return err
}
