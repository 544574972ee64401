package smm

import (
	"context"
	"net/url"
	"time"
)

// Account is a brand or person, with at most one connection per platform.
type Account struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Connections []Connection `json:"connections"`
	CreatedAt   time.Time    `json:"created_at"`
}

// Connection is an account's link to one platform; its credentials are never shown.
type Connection struct {
	Platform    string `json:"platform"`
	Handle      string `json:"handle"`
	DisplayName string `json:"display_name"`
	// Status is active, or reauth_required when the platform refused the credentials.
	Status      string    `json:"status"`
	ConnectedAt time.Time `json:"connected_at"`
}

// AccountCreateParams is a new account.
type AccountCreateParams struct {
	Name           string
	IdempotencyKey string
}

// AccountListParams filters and pages the accounts.
type AccountListParams struct {
	// Platform keeps the accounts connected to it.
	Platform string
	Limit    int
}

// ConnectionCreateParams connects a platform to an account.
type ConnectionCreateParams struct {
	// Platform is feed, mastodon, bluesky, telegram, discord or slack.
	Platform string
	// Credentials are the platform's (see the API reference); feed needs none.
	Credentials    map[string]any
	IdempotencyKey string
}

// AccountsService is /v1/accounts.
type AccountsService struct{ c *Client }

// List walks every account (GET /v1/accounts).
func (s *AccountsService) List(ctx context.Context, p AccountListParams) *Pager[Account] {
	q := url.Values{}
	setIf(q, "platform", p.Platform)
	return newPager[Account](s.c, "/v1/accounts", q, p.Limit)
}

// Create makes an account to connect platforms to (POST /v1/accounts).
func (s *AccountsService) Create(ctx context.Context, p AccountCreateParams) (*Account, error) {
	return call[Account](ctx, s.c, request{method: "POST", path: "/v1/accounts", body: map[string]any{"name": p.Name}, idempotencyKey: p.IdempotencyKey})
}

// Get reads an account and its connections (GET /v1/accounts/{id}).
func (s *AccountsService) Get(ctx context.Context, id string) (*Account, error) {
	return call[Account](ctx, s.c, request{method: "GET", path: pathOf("/v1/accounts/{id}", id)})
}

// Connect links a platform, replacing an existing connection to it; the daemon verifies the
// credentials with the platform first (POST /v1/accounts/{id}/connections).
func (s *AccountsService) Connect(ctx context.Context, id string, p ConnectionCreateParams) (*Connection, error) {
	body := map[string]any{"platform": p.Platform}
	if p.Credentials != nil {
		body["credentials"] = p.Credentials
	}
	return call[Connection](ctx, s.c, request{method: "POST", path: pathOf("/v1/accounts/{id}/connections", id), body: body, idempotencyKey: p.IdempotencyKey})
}

// Disconnect unlinks a platform and forgets its credentials (DELETE /v1/accounts/{id}/connections/{platform}).
func (s *AccountsService) Disconnect(ctx context.Context, id, platform string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/accounts/{id}/connections/{platform}", id, platform)})
	return err
}
