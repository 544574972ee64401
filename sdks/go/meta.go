package smm

import (
	"context"
	"encoding/json"
	"time"
)

// User is the profile of the key's owner.
type User struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Email *string `json:"email"`
	// Plan is standard, business or enterprise.
	Plan      string    `json:"plan"`
	Limits    Limits    `json:"limits"`
	Timezone  string    `json:"timezone"`
	CreatedAt time.Time `json:"created_at"`
}

// Limits are the user's request limits per window.
type Limits struct {
	PerMinute int `json:"per_minute"`
	PerHour   int `json:"per_hour"`
	PerDay    int `json:"per_day"`
}

// Health is the daemon's liveness (or readiness) answer.
type Health struct {
	Status  string `json:"status"`
	Version string `json:"version"`
}

// Me reads the profile of the user who owns the key (GET /v1/me).
func (c *Client) Me(ctx context.Context) (*User, error) {
	return call[User](ctx, c, request{method: "GET", path: "/v1/me"})
}

// MeUpdateParams changes the key owner's own profile; nil fields are left as they are.
type MeUpdateParams struct {
	Name     *string
	Timezone *string
}

// UpdateMe changes the key owner's name or IANA time zone (PATCH /v1/me; scope profile:write).
func (c *Client) UpdateMe(ctx context.Context, p MeUpdateParams) (*User, error) {
	body := map[string]any{}
	if p.Name != nil {
		body["name"] = *p.Name
	}
	if p.Timezone != nil {
		body["timezone"] = *p.Timezone
	}
	return call[User](ctx, c, request{method: "PATCH", path: "/v1/me", body: body})
}

// Health checks that the daemon is up (GET /healthz).
func (c *Client) Health(ctx context.Context) (*Health, error) {
	return call[Health](ctx, c, request{method: "GET", path: "/healthz"})
}

// Ready checks that the daemon can serve: its database answers within a second (GET /readyz;
// an *Error with code store_unavailable when it does not).
func (c *Client) Ready(ctx context.Context) (*Health, error) {
	return call[Health](ctx, c, request{method: "GET", path: "/readyz"})
}

// OpenAPI fetches the API's OpenAPI 3.1 document (GET /v1/openapi.json).
func (c *Client) OpenAPI(ctx context.Context) (json.RawMessage, error) {
	var doc []byte
	if _, err := c.do(ctx, request{method: "GET", path: "/v1/openapi.json", out: &doc}); err != nil {
		return nil, err
	}
	return doc, nil
}

// FeedsService is the feed platform's public output, /feeds/{account_id}.{rss,atom,json,html}.
type FeedsService struct{ c *Client }

// RSS is the account's feed as RSS 2.0 (GET /feeds/{account_id}.rss).
func (s *FeedsService) RSS(ctx context.Context, accountID string) ([]byte, error) {
	return s.get(ctx, pathOf("/feeds/{account_id}.rss", accountID))
}

// Atom is the account's feed as Atom (GET /feeds/{account_id}.atom).
func (s *FeedsService) Atom(ctx context.Context, accountID string) ([]byte, error) {
	return s.get(ctx, pathOf("/feeds/{account_id}.atom", accountID))
}

// JSON is the account's feed as JSON Feed 1.1 (GET /feeds/{account_id}.json).
func (s *FeedsService) JSON(ctx context.Context, accountID string) ([]byte, error) {
	return s.get(ctx, pathOf("/feeds/{account_id}.json", accountID))
}

// HTML is the account's feed as a web page, each post an article anchored by its id (GET /feeds/{account_id}.html).
func (s *FeedsService) HTML(ctx context.Context, accountID string) ([]byte, error) {
	return s.get(ctx, pathOf("/feeds/{account_id}.html", accountID))
}

func (s *FeedsService) get(ctx context.Context, path string) ([]byte, error) {
	var body []byte
	_, err := s.c.do(ctx, request{method: "GET", path: path, out: &body})
	return body, err
}
