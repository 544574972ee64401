package smm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"smm.local/smm"
)

func TestADeliveryOfTheDaemonVerifies(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	webhook, err := c.Webhooks.Create(ctx, smm.WebhookCreateParams{URL: live.ReceiverURL, Events: []string{"*"}, Description: "go sdk"})
	if err != nil {
		t.Fatal(err)
	}
	if webhook.Secret == "" || !webhook.Enabled {
		t.Fatalf("created: %+v", webhook)
	}
	t.Cleanup(func() {
		if err := c.Webhooks.Delete(ctx, webhook.ID); err != nil {
			t.Error(err)
		}
	})
	if listed, err := c.Webhooks.Get(ctx, webhook.ID); err != nil || listed.Secret != "" {
		t.Fatalf("the secret is shown once: %+v, %v", listed, err)
	}
	accepted, err := c.Webhooks.Test(ctx, webhook.ID)
	if err != nil {
		t.Fatal(err)
	}
	delivery := live.WaitForDelivery(t, accepted.EventID)

	event, err := smm.VerifyWebhook([]byte(delivery.Body), delivery.Header(), webhook.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if event.ID != accepted.EventID || event.Type != "webhook.test" {
		t.Fatalf("event: %+v", event)
	}
	var data struct {
		WebhookID string `json:"webhook_id"`
	}
	if err := json.Unmarshal(event.Data, &data); err != nil || data.WebhookID != webhook.ID {
		t.Fatalf("data: %s", event.Data)
	}

	var refused *smm.WebhookVerificationError
	if _, err := smm.VerifyWebhook([]byte(delivery.Body+" "), delivery.Header(), webhook.Secret); !errors.As(err, &refused) {
		t.Fatalf("a changed body must be refused, got %v", err)
	}
	rotated, err := c.Webhooks.RotateSecret(ctx, webhook.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := smm.VerifyWebhook([]byte(delivery.Body), delivery.Header(), rotated.Secret); !errors.As(err, &refused) {
		t.Fatalf("another secret must be refused, got %v", err)
	}

	description := "go sdk, paused"
	paused, err := c.Webhooks.Update(ctx, webhook.ID, smm.WebhookUpdateParams{Description: smm.String(description), Enabled: smm.Bool(false)})
	if err != nil || paused.Enabled || paused.Description == nil || *paused.Description != description || paused.URL != live.ReceiverURL {
		t.Fatalf("Update: %+v, %v", paused, err)
	}
	cleared, err := c.Webhooks.Update(ctx, webhook.ID, smm.WebhookUpdateParams{ClearDescription: true})
	if err != nil || cleared.Description != nil || cleared.Enabled {
		t.Fatalf("ClearDescription: %+v, %v", cleared, err)
	}
	listed, err := c.Webhooks.List(ctx, smm.WebhookListParams{Limit: 100}).All(ctx)
	found := false
	for _, w := range listed {
		found = found || (w.ID == webhook.ID && w.Secret == "")
	}
	if err != nil || !found {
		t.Fatalf("List should hold %s, without its secret: %+v, %v", webhook.ID, listed, err)
	}

	deliveries, err := c.Webhooks.ListDeliveries(ctx, webhook.ID, smm.ListParams{}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Other tests' events stamped at the same instant of the harness's manual clock go to this
	// endpoint too (it "existed when they happened"): look for the test event's attempt among them.
	var tested []smm.WebhookDelivery
	for _, d := range deliveries {
		if d.EventID == accepted.EventID {
			tested = append(tested, d)
		}
	}
	if len(tested) != 1 || !tested[0].Succeeded || tested[0].WebhookID != webhook.ID {
		t.Fatalf("deliveries: %+v", deliveries)
	}
}

// The vector of the Standard Webhooks reference libraries' tests (libraries/go/webhook_test.go
// in github.com/standard-webhooks/standard-webhooks).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorPayload   = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	wrongSignature  = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="
)

func vectorHeader(signature string) http.Header {
	h := http.Header{}
	h.Set("webhook-id", vectorID)
	h.Set("webhook-timestamp", strconv.Itoa(vectorTimestamp))
	h.Set("webhook-signature", signature)
	return h
}

func TestTheStandardWebhooksVectors(t *testing.T) {
	sent := time.Unix(vectorTimestamp, 0)
	for _, tc := range []struct {
		name   string
		header http.Header
		secret string
		now    time.Time
		ok     bool
	}{
		{"the vector", vectorHeader(vectorSignature), vectorSecret, sent, true},
		{"a secret without whsec_", vectorHeader(vectorSignature), vectorSecret[len("whsec_"):], sent, true},
		{"several signatures, one valid", vectorHeader(wrongSignature + " v2," + vectorSignature[3:] + " " + vectorSignature + " " + wrongSignature), vectorSecret, sent, true},
		{"4 min 59 s old", vectorHeader(vectorSignature), vectorSecret, sent.Add(5*time.Minute - time.Second), true},
		{"a wrong signature", vectorHeader(wrongSignature), vectorSecret, sent, false},
		{"the right value as v2", vectorHeader("v2," + vectorSignature[3:]), vectorSecret, sent, false},
		{"over 5 minutes old", vectorHeader(vectorSignature), vectorSecret, sent.Add(5*time.Minute + time.Second), false},
		{"over 5 minutes ahead", vectorHeader(vectorSignature), vectorSecret, sent.Add(-5*time.Minute - time.Second), false},
		{"no webhook-id", without(vectorHeader(vectorSignature), "webhook-id"), vectorSecret, sent, false},
		{"no webhook-timestamp", without(vectorHeader(vectorSignature), "webhook-timestamp"), vectorSecret, sent, false},
		{"no webhook-signature", without(vectorHeader(vectorSignature), "webhook-signature"), vectorSecret, sent, false},
		{"a malformed timestamp", with(vectorHeader(vectorSignature), "webhook-timestamp", "soon"), vectorSecret, sent, false},
		{"a malformed signature", vectorHeader("v1"), vectorSecret, sent, false},
		{"a signature that is not base64", vectorHeader("v1,%%%"), vectorSecret, sent, false},
		{"a secret that is not base64", vectorHeader(vectorSignature), "whsec_%%%", sent, false},
	} {
		event, err := smm.VerifyWebhookAt([]byte(vectorPayload), tc.header, tc.secret, tc.now)
		var refused *smm.WebhookVerificationError
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.ok && event.ID != vectorID:
			t.Errorf("%s: event %+v", tc.name, event)
		case !tc.ok && !errors.As(err, &refused):
			t.Errorf("%s: want a *smm.WebhookVerificationError, got %v", tc.name, err)
		}
	}
}

func without(h http.Header, name string) http.Header {
	h.Del(name)
	return h
}

func with(h http.Header, name, value string) http.Header {
	h.Set(name, value)
	return h
}
