package smm

import (
	"context"
	"net/url"
	"time"
)

// Account is a brand or person, with at most one connection per platform.
type Account struct {
	ID string `json:"id"`
	// WorkspaceID is the workspace it belongs to.
	WorkspaceID string       `json:"workspace_id"`
	Name        string       `json:"name"`
	Connections []Connection `json:"connections"`
	CreatedAt   time.Time    `json:"created_at"`
}

// Connection is an account's link to one platform; its credentials are never shown.
type Connection struct {
	Platform    string `json:"platform"`
	Handle      string `json:"handle"`
	DisplayName string `json:"display_name"`
	// Status is active, reauth_required when the platform refused the credentials, or pending
	// while the person approves an OAuth platform in their browser.
	Status      string    `json:"status"`
	ConnectedAt time.Time `json:"connected_at"`
	// AuthorizeURL is set in Connect's answer for an OAuth platform (x, linkedin, threads,
	// facebook, instagram): open it and approve before ExpiresAt.
	AuthorizeURL string `json:"authorize_url,omitempty"`
	// ExpiresAt is when a pending connection's approval lapses.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// AccountCreateParams is a new account.
type AccountCreateParams struct {
	Name string
	// WorkspaceID is where it goes (default: your personal workspace).
	WorkspaceID    string
	IdempotencyKey string
}

// AccountListParams filters and pages the accounts.
type AccountListParams struct {
	// Platform keeps the accounts connected to it.
	Platform string
	// WorkspaceID keeps one workspace's (default: every workspace you belong to).
	WorkspaceID string
	Limit       int
}

// ConnectionCreateParams connects a platform to an account.
type ConnectionCreateParams struct {
	// Platform is feed, mastodon, bluesky, telegram, discord, slack, or an OAuth platform.
	Platform string
	// Credentials are the platform's (see the API reference); feed and OAuth platforms need none.
	Credentials map[string]any
	// Options go with an OAuth connection, e.g. {"page_id": "…"} for Facebook.
	Options        map[string]string
	IdempotencyKey string
}

// AccountUpdateParams renames an account.
type AccountUpdateParams struct {
	Name string
}

// AccountDeleteParams says what to do with the account's scheduled posts.
type AccountDeleteParams struct {
	// CancelPosts cancels its scheduled posts too (each gets post.cancelled); without it, an
	// account with scheduled posts is not deleted (409 account_has_scheduled_posts).
	CancelPosts bool
}

// AccountsService is /v1/accounts.
type AccountsService struct{ c *Client }

// List walks every account (GET /v1/accounts).
func (s *AccountsService) List(ctx context.Context, p AccountListParams) *Pager[Account] {
	q := url.Values{}
	setIf(q, "platform", p.Platform)
	setIf(q, "workspace_id", p.WorkspaceID)
	return newPager[Account](s.c, "/v1/accounts", q, p.Limit)
}

// Create makes an account to connect platforms to (POST /v1/accounts).
func (s *AccountsService) Create(ctx context.Context, p AccountCreateParams) (*Account, error) {
	body := map[string]any{"name": p.Name}
	if p.WorkspaceID != "" {
		body["workspace_id"] = p.WorkspaceID
	}
	return call[Account](ctx, s.c, request{method: "POST", path: "/v1/accounts", body: body, idempotencyKey: p.IdempotencyKey})
}

// Get reads an account and its connections (GET /v1/accounts/{id}).
func (s *AccountsService) Get(ctx context.Context, id string) (*Account, error) {
	return call[Account](ctx, s.c, request{method: "GET", path: pathOf("/v1/accounts/{id}", id)})
}

// Update renames an account (PATCH /v1/accounts/{id}).
func (s *AccountsService) Update(ctx context.Context, id string, p AccountUpdateParams) (*Account, error) {
	return call[Account](ctx, s.c, request{method: "PATCH", path: pathOf("/v1/accounts/{id}", id), body: map[string]any{"name": p.Name}})
}

// Delete removes an account with its connections, posts and feed (DELETE /v1/accounts/{id}).
func (s *AccountsService) Delete(ctx context.Context, id string, p AccountDeleteParams) error {
	q := url.Values{}
	if p.CancelPosts {
		q.Set("cancel_posts", "true")
	}
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/accounts/{id}", id), query: q})
	return err
}

// Connect links a platform, replacing an existing connection to it; the daemon verifies the
// credentials with the platform first (POST /v1/accounts/{id}/connections). For an OAuth
// platform the answer is pending: Status "pending", with AuthorizeURL and ExpiresAt.
func (s *AccountsService) Connect(ctx context.Context, id string, p ConnectionCreateParams) (*Connection, error) {
	body := map[string]any{"platform": p.Platform}
	if p.Credentials != nil {
		body["credentials"] = p.Credentials
	}
	if p.Options != nil {
		body["options"] = p.Options
	}
	return call[Connection](ctx, s.c, request{method: "POST", path: pathOf("/v1/accounts/{id}/connections", id), body: body, idempotencyKey: p.IdempotencyKey})
}

// QueueSlot is one weekly slot: Day is monday … sunday, Time "HH:MM" (24-hour) in the user's time zone.
type QueueSlot struct {
	Day  string `json:"day"`
	Time string `json:"time"`
}

// Queue is an account's weekly queue slots and the next free times they give.
type Queue struct {
	// Timezone is the user's IANA zone, the one the slots are wall-clock times in.
	Timezone string      `json:"timezone"`
	Slots    []QueueSlot `json:"slots"`
	// Next are up to 10 upcoming slot times no scheduled post of the account takes.
	Next []time.Time `json:"next"`
}

// Queue reads the account's queue slots and next free slot times (GET /v1/accounts/{id}/queue).
func (s *AccountsService) Queue(ctx context.Context, id string) (*Queue, error) {
	return call[Queue](ctx, s.c, request{method: "GET", path: pathOf("/v1/accounts/{id}/queue", id)})
}

// SetQueue replaces the account's queue slots; an empty list empties the queue (PUT /v1/accounts/{id}/queue).
func (s *AccountsService) SetQueue(ctx context.Context, id string, slots []QueueSlot) (*Queue, error) {
	if slots == nil {
		slots = []QueueSlot{}
	}
	return call[Queue](ctx, s.c, request{method: "PUT", path: pathOf("/v1/accounts/{id}/queue", id), body: map[string]any{"slots": slots}})
}

// Disconnect unlinks a platform and forgets its credentials (DELETE /v1/accounts/{id}/connections/{platform}).
func (s *AccountsService) Disconnect(ctx context.Context, id, platform string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/accounts/{id}/connections/{platform}", id, platform)})
	return err
}
