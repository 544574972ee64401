package smm

// What the tests of package smm_test (and the examples' tests) need from inside the package.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"
)

// VerifyWebhookAt is VerifyWebhook at a given time, for the Standard Webhooks test vectors.
var VerifyWebhookAt = verifyWebhook

// Live is the harness around a suite run by test/sdk-go.test.ts: a daemon, a webhook receiver
// it delivers to, and a control server that moves the daemon's clock.
type Live struct {
	URL, APIKey, CAFile, LimitedAPIKey, ReceiverURL, ControlURL string
	// MemberAPIKey is a second user's, whose email is MemberEmail: someone to add to a workspace.
	MemberAPIKey, MemberEmail string
}

// LiveEnv reads the harness from the environment, or skips the test saying how to get one.
func LiveEnv(t *testing.T) Live {
	t.Helper()
	env := Live{
		URL: os.Getenv("SMM_URL"), APIKey: os.Getenv("SMM_API_KEY"), CAFile: os.Getenv("SMM_CA_FILE"),
		LimitedAPIKey: os.Getenv("SMM_TEST_LIMITED_API_KEY"), ReceiverURL: os.Getenv("SMM_TEST_RECEIVER_URL"),
		ControlURL: os.Getenv("SMM_TEST_CONTROL_URL"), MemberAPIKey: os.Getenv("SMM_TEST_MEMBER_API_KEY"), MemberEmail: os.Getenv("SMM_TEST_MEMBER_EMAIL"),
	}
	if env.URL == "" || env.APIKey == "" || env.CAFile == "" || env.LimitedAPIKey == "" || env.ReceiverURL == "" || env.ControlURL == "" || env.MemberAPIKey == "" || env.MemberEmail == "" {
		t.Skip("no live daemon: run `npx vitest run test/sdk-go.test.ts` from the repository root, which starts one and sets SMM_URL, SMM_API_KEY, SMM_CA_FILE and SMM_TEST_*")
	}
	return env
}

// Client is a client of the harness's daemon with the owner's key. Its waits between attempts
// move the daemon's clock instead of taking time: a suite that meets a rate limit stays fast.
func (l Live) Client(t *testing.T, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(l.URL, l.APIKey, append([]Option{WithCAFile(l.CAFile), WithSleep(l.Advance)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Member is a client of the harness's daemon with the second user's key.
func (l Live) Member(t *testing.T) *Client {
	t.Helper()
	c, err := NewClient(l.URL, l.MemberAPIKey, WithCAFile(l.CAFile), WithSleep(l.Advance))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Advance moves the daemon's clock forward by d.
func (l Live) Advance(ctx context.Context, d time.Duration) error {
	body, _ := json.Marshal(map[string]float64{"seconds": d.Seconds()})
	req, err := http.NewRequestWithContext(ctx, "POST", l.ControlURL+"/clock/advance", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("control server: POST /clock/advance answered %d", res.StatusCode)
	}
	return nil
}

// Delivery is one request the harness's webhook receiver got, as it got it.
type Delivery struct {
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// Header is the delivery's headers as a request handler sees them.
func (d Delivery) Header() http.Header {
	h := http.Header{}
	for name, value := range d.Headers {
		h.Set(name, value)
	}
	return h
}

// WaitForDelivery polls the receiver until a delivery with this webhook-id arrives (at most 10 s:
// the daemon delivers a due event within a second).
func (l Live) WaitForDelivery(t *testing.T, eventID string) Delivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get(l.ControlURL + "/webhooks")
		if err != nil {
			t.Fatal(err)
		}
		var got []Delivery
		err = json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range got {
			if d.Headers["webhook-id"] == eventID {
				return d
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no delivery of %s reached the receiver within 10 s (it got %d others)", eventID, len(got))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
