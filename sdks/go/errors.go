package smm

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// FieldError is one invalid field of a request, as the problem's `errors` list names it.
type FieldError struct {
	// Pointer is a JSON Pointer into the request body or query, e.g. "#/scheduled_at".
	Pointer string `json:"pointer"`
	Code    string `json:"code"`
	Detail  string `json:"detail"`
}

// Problem is the RFC 9457 problem document the API answers every error with.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	// Instance is the request id (`req_…`), the one to quote to the daemon's operator.
	Instance string       `json:"instance,omitempty"`
	Code     string       `json:"code"`
	Errors   []FieldError `json:"errors,omitempty"`
	// Extensions holds every other member (`violated` on a 429, `post_status` on a 409…).
	Extensions map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the members Problem does not name in Extensions.
func (p *Problem) UnmarshalJSON(data []byte) error {
	type known Problem
	if err := json.Unmarshal(data, (*known)(p)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for _, name := range []string{"type", "title", "status", "detail", "instance", "code", "errors"} {
		delete(all, name)
	}
	if len(all) > 0 {
		p.Extensions = all
	}
	return nil
}

// APIError is an error answer of the API: its status, its stable code and the whole problem.
type APIError struct {
	Status int
	Code   string
	// RequestID is the response's X-Request-Id (`req_…`).
	RequestID string
	Problem   Problem
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "smm: %d", e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Problem.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Problem.Detail)
	}
	for _, f := range e.Problem.Errors {
		fmt.Fprintf(&b, "; %s %s", f.Pointer, f.Detail)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// RateLimitError is a 429 that was not (or no longer) retried: RetryAfter says when a retry
// will be admitted. errors.As finds the *APIError inside it too.
type RateLimitError struct {
	*APIError
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s; retry after %s", e.APIError.Error(), e.RetryAfter)
}

// Unwrap gives errors.As and errors.Is the *APIError.
func (e *RateLimitError) Unwrap() error { return e.APIError }

// WebhookVerificationError says why a webhook delivery was refused: a missing or malformed
// header, a timestamp outside the tolerance, or no signature that matches the secret.
type WebhookVerificationError struct {
	Reason string
}

func (e *WebhookVerificationError) Error() string {
	return "smm: webhook verification failed: " + e.Reason
}
