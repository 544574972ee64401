package smm

import (
	"context"
	"net/url"
	"time"
)

// Webhook is an HTTPS endpoint the daemon delivers events to.
type Webhook struct {
	ID string `json:"id"`
	// WorkspaceID is the workspace whose events it receives.
	WorkspaceID string `json:"workspace_id"`
	URL         string `json:"url"`
	// Events are the event types delivered, or ["*"] for all of them.
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	Enabled     bool     `json:"enabled"`
	// DisabledReason says why the daemon stopped delivering (410 Gone, 5 days of failures…).
	DisabledReason *string    `json:"disabled_reason"`
	DisabledAt     *time.Time `json:"disabled_at"`
	// PreviousSecretExpiresAt is until when deliveries are also signed with the secret before
	// the last rotation.
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
	// Secret (whsec_…) verifies deliveries. It is in the answer of Create and RotateSecret only
	// (and not when an Idempotency-Key replays it): store it then.
	Secret string `json:"secret,omitempty"`
}

// WebhookDelivery is one attempt to deliver one event to one endpoint.
type WebhookDelivery struct {
	ID        string `json:"id"`
	WebhookID string `json:"webhook_id"`
	// EventID is the webhook-id header sent: the same on every retry of the event.
	EventID   string `json:"event_id"`
	EventType string `json:"event_type"`
	Attempt   int    `json:"attempt"`
	Succeeded bool   `json:"succeeded"`
	// StatusCode is the HTTP status answered, or nil when no answer came.
	StatusCode    *int       `json:"status_code"`
	DurationMS    float64    `json:"duration_ms"`
	ResponseBody  *string    `json:"response_body"`
	Error         *string    `json:"error"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	CreatedAt     time.Time  `json:"created_at"`
}

// WebhookTestAccepted is the answer to Test: the webhook-id the test delivery carries.
type WebhookTestAccepted struct {
	EventID string `json:"event_id"`
}

// WebhookCreateParams registers an endpoint.
type WebhookCreateParams struct {
	// URL must be https://.
	URL string
	// Events are event types (post.published, …), or ["*"] for every type.
	Events      []string
	Description string
	// WorkspaceID is the workspace whose events it receives (default: your personal workspace).
	WorkspaceID    string
	IdempotencyKey string
}

// WebhookUpdateParams changes an endpoint: nil fields are left as they are.
type WebhookUpdateParams struct {
	URL         *string
	Events      []string
	Description *string
	// ClearDescription sets the description to null (Description must then be nil).
	ClearDescription bool
	// Enabled true re-enables a disabled endpoint and clears its DisabledReason.
	Enabled *bool
}

// WebhooksService is /v1/webhooks.
type WebhooksService struct{ c *Client }

// WebhookListParams filters the endpoints listed.
type WebhookListParams struct {
	// WorkspaceID keeps one workspace's (default: those of every workspace where you are admin or owner).
	WorkspaceID string
	Limit       int
}

// List walks the endpoints of your workspaces, without secrets (GET /v1/webhooks).
func (s *WebhooksService) List(ctx context.Context, p WebhookListParams) *Pager[Webhook] {
	q := url.Values{}
	setIf(q, "workspace_id", p.WorkspaceID)
	return newPager[Webhook](s.c, "/v1/webhooks", q, p.Limit)
}

// Create registers an endpoint; the answer's Secret is shown this once (POST /v1/webhooks).
func (s *WebhooksService) Create(ctx context.Context, p WebhookCreateParams) (*Webhook, error) {
	body := map[string]any{"url": p.URL, "events": p.Events}
	if p.Description != "" {
		body["description"] = p.Description
	}
	if p.WorkspaceID != "" {
		body["workspace_id"] = p.WorkspaceID
	}
	return call[Webhook](ctx, s.c, request{method: "POST", path: "/v1/webhooks", body: body, idempotencyKey: p.IdempotencyKey})
}

// Get reads an endpoint (GET /v1/webhooks/{id}).
func (s *WebhooksService) Get(ctx context.Context, id string) (*Webhook, error) {
	return call[Webhook](ctx, s.c, request{method: "GET", path: pathOf("/v1/webhooks/{id}", id)})
}

// Update changes an endpoint or enables/disables it (PATCH /v1/webhooks/{id}).
func (s *WebhooksService) Update(ctx context.Context, id string, p WebhookUpdateParams) (*Webhook, error) {
	body := map[string]any{}
	if p.URL != nil {
		body["url"] = *p.URL
	}
	if p.Events != nil {
		body["events"] = p.Events
	}
	if p.Description != nil {
		body["description"] = *p.Description
	} else if p.ClearDescription {
		body["description"] = nil
	}
	if p.Enabled != nil {
		body["enabled"] = *p.Enabled
	}
	return call[Webhook](ctx, s.c, request{method: "PATCH", path: pathOf("/v1/webhooks/{id}", id), body: body})
}

// Delete removes an endpoint and its delivery history (DELETE /v1/webhooks/{id}).
func (s *WebhooksService) Delete(ctx context.Context, id string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/webhooks/{id}", id)})
	return err
}

// Test sends a webhook.test event to this endpoint only (POST /v1/webhooks/{id}/test).
func (s *WebhooksService) Test(ctx context.Context, id string) (*WebhookTestAccepted, error) {
	return call[WebhookTestAccepted](ctx, s.c, request{method: "POST", path: pathOf("/v1/webhooks/{id}/test", id)})
}

// RotateSecret replaces the signing secret; for 24 h deliveries carry signatures with both
// (POST /v1/webhooks/{id}/rotate-secret).
func (s *WebhooksService) RotateSecret(ctx context.Context, id string) (*Webhook, error) {
	return call[Webhook](ctx, s.c, request{method: "POST", path: pathOf("/v1/webhooks/{id}/rotate-secret", id)})
}

// ResendDelivery sends one delivery again now, with the same webhook-id and body; deliveryID is
// its event id (msg_…, the webhook-id header) or the id of one of its attempts (dlv_…)
// (POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend).
func (s *WebhooksService) ResendDelivery(ctx context.Context, id, deliveryID string) (*WebhookTestAccepted, error) {
	return call[WebhookTestAccepted](ctx, s.c, request{method: "POST", path: pathOf("/v1/webhooks/{id}/deliveries/{delivery_id}/resend", id, deliveryID)})
}

// ListDeliveries walks the endpoint's delivery attempts, newest first
// (GET /v1/webhooks/{id}/deliveries).
func (s *WebhooksService) ListDeliveries(ctx context.Context, id string, p ListParams) *Pager[WebhookDelivery] {
	return newPager[WebhookDelivery](s.c, pathOf("/v1/webhooks/{id}/deliveries", id), nil, p.Limit)
}
