package smm

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookTolerance is how far a delivery's webhook-timestamp may be from now, either way:
// an older delivery is refused so a captured one cannot be replayed later.
const WebhookTolerance = 5 * time.Minute

// WebhookEvent is a verified delivery: the webhook-id header and the parsed body.
type WebhookEvent struct {
	// ID is the webhook-id header (msg_…): the same on every retry of one event, so a receiver
	// can drop duplicates.
	ID        string          `json:"-"`
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// VerifyWebhook checks a delivery as Standard Webhooks specifies: payload is the raw request
// body (before any JSON decoding), header the request's headers, secret the endpoint's
// whsec_… secret. It accepts the delivery if any signature in webhook-signature matches and
// webhook-timestamp is within WebhookTolerance of now, and returns the parsed event; otherwise
// it returns a *WebhookVerificationError.
func VerifyWebhook(payload []byte, header http.Header, secret string) (*WebhookEvent, error) {
	return verifyWebhook(payload, header, secret, time.Now())
}

func verifyWebhook(payload []byte, header http.Header, secret string, now time.Time) (*WebhookEvent, error) {
	fail := func(reason string) (*WebhookEvent, error) { return nil, &WebhookVerificationError{Reason: reason} }
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return fail("the secret is not whsec_ followed by base64")
	}
	id, stamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || stamp == "" || signatures == "" {
		return fail("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	seconds, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return fail("webhook-timestamp is not a whole number of seconds")
	}
	sent := time.Unix(seconds, 0)
	if now.Sub(sent) > WebhookTolerance {
		return fail("webhook-timestamp is more than 5 minutes old")
	}
	if sent.Sub(now) > WebhookTolerance {
		return fail("webhook-timestamp is more than 5 minutes in the future")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + stamp + "."))
	mac.Write(payload)
	expected := mac.Sum(nil)
	matched := false
	// Several space-separated signatures: one per secret while a rotation's old secret still
	// signs, and versions other than v1 that this SDK does not know.
	for _, signature := range strings.Fields(signatures) {
		version, value, ok := strings.Cut(signature, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(got, expected) {
			matched = true
			break
		}
	}
	if !matched {
		return fail("no v1 signature in webhook-signature matches the secret")
	}
	event := WebhookEvent{ID: id}
	if err := json.Unmarshal(payload, &event); err != nil {
		return fail("the signed body is not a JSON event: " + err.Error())
	}
	return &event, nil
}
