package smm

import (
	"context"
	"time"
)

// APIKey is one of the user's keys.
type APIKey struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	// Prefix is the key's first 12 characters, for recognising it.
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	// Secret is the key itself, in Create's answer only (and not when an Idempotency-Key
	// replays it): store it then.
	Secret string `json:"secret,omitempty"`
}

// APIKeyCreateParams is a new key.
type APIKeyCreateParams struct {
	Name string
	// Scopes the key holds (profile:read, posts:write, …); empty: all of them.
	Scopes []string
	// ExpiresAt is when the key stops working; zero: never.
	ExpiresAt      time.Time
	IdempotencyKey string
}

// APIKeysService is /v1/api-keys.
type APIKeysService struct{ c *Client }

// List walks the user's keys, never their secrets (GET /v1/api-keys).
func (s *APIKeysService) List(ctx context.Context, p ListParams) *Pager[APIKey] {
	return newPager[APIKey](s.c, "/v1/api-keys", nil, p.Limit)
}

// Create makes a key; its Secret is in this answer only (POST /v1/api-keys).
func (s *APIKeysService) Create(ctx context.Context, p APIKeyCreateParams) (*APIKey, error) {
	body := map[string]any{"name": p.Name}
	if p.Scopes != nil {
		body["scopes"] = p.Scopes
	}
	if !p.ExpiresAt.IsZero() {
		body["expires_at"] = timestamp(p.ExpiresAt)
	}
	return call[APIKey](ctx, s.c, request{method: "POST", path: "/v1/api-keys", body: body, idempotencyKey: p.IdempotencyKey})
}

// Revoke refuses the key from now on (DELETE /v1/api-keys/{id}).
func (s *APIKeysService) Revoke(ctx context.Context, id string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/api-keys/{id}", id)})
	return err
}
