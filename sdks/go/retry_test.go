package smm_test

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"smm.local/smm"
)

func TestA429IsRetriedAfterItsRetryAfter(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	// The limited key's owner may make 2 requests a minute: spend them without retries.
	once, err := smm.NewClient(live.URL, live.LimitedAPIKey, smm.WithCAFile(live.CAFile), smm.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var limited *smm.RateLimitError
	for i := 0; i < 5 && limited == nil; i++ {
		if _, err := once.Me(ctx); err != nil && !errors.As(err, &limited) {
			t.Fatal(err)
		}
	}
	if limited == nil {
		t.Fatal("5 calls with a key limited to 2 a minute were never refused")
	}
	var apiErr *smm.APIError
	if !errors.As(error(limited), &apiErr) || apiErr.Status != 429 || apiErr.Code != "rate_limited" {
		t.Fatalf("errors.As should find the *smm.APIError in a *smm.RateLimitError: %v", limited)
	}
	if violated := string(limited.Problem.Extensions["violated"]); violated != `["minute"]` {
		t.Fatalf("the problem should name the minute window: violated = %s", violated)
	}
	if limited.RetryAfter < time.Second || limited.RetryAfter > time.Minute {
		t.Fatalf("RetryAfter %s: want the 429's Retry-After, 1 s to 1 min", limited.RetryAfter)
	}

	// The sleep the client is given moves the daemon's clock instead of waiting.
	var slept []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return live.Advance(ctx, d)
	}
	patient, err := smm.NewClient(live.URL, live.LimitedAPIKey, smm.WithCAFile(live.CAFile), smm.WithSleep(sleep))
	if err != nil {
		t.Fatal(err)
	}
	me, err := patient.Me(ctx)
	if err != nil {
		t.Fatalf("after waiting out Retry-After the call should succeed: %v", err)
	}
	if me.Name != "limited" {
		t.Fatalf("Me: %+v", me)
	}
	if len(slept) != 1 || slept[0] != limited.RetryAfter {
		t.Fatalf("slept %v, want exactly the Retry-After [%s]", slept, limited.RetryAfter)
	}
}

// flaky is a loopback HTTPS server standing in for the daemon, which fails its first request.
type flaky struct {
	*httptest.Server
	caFile string
	mu     sync.Mutex
	keys   []string
	bodies []string
}

func startFlaky(t *testing.T, fail func(w http.ResponseWriter)) *flaky {
	t.Helper()
	f := &flaky{}
	f.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.keys = append(f.keys, r.Header.Get("Idempotency-Key"))
		f.bodies = append(f.bodies, string(body))
		first := len(f.keys) == 1
		f.mu.Unlock()
		if first {
			fail(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		w.WriteHeader(201)
		io.WriteString(w, `{"id":"pst_1","account_id":"acc_1","content":"hi","media_urls":[],"platforms":["feed"],"scheduled_at":"2030-01-01T00:00:00.000Z","status":"scheduled","targets":[],"created_at":"2030-01-01T00:00:00.000Z","updated_at":"2030-01-01T00:00:00.000Z","published_at":null,"cancelled_at":null}`)
	}))
	t.Cleanup(f.Close)
	f.caFile = writeCertificate(t, f.Certificate().Raw)
	return f
}

func writeCertificate(t *testing.T, der []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestARetriedCreateResendsTheSameIdempotencyKey(t *testing.T) {
	failures := map[string]func(w http.ResponseWriter){
		"a 503": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(503)
			io.WriteString(w, `{"type":"urn:smm:problem:internal_error","title":"Unavailable","status":503,"detail":"busy","code":"internal_error"}`)
		},
		"a dropped connection": func(w http.ResponseWriter) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		},
	}
	for name, fail := range failures {
		t.Run(name, func(t *testing.T) {
			server := startFlaky(t, fail)
			var slept []time.Duration
			c, err := smm.NewClient(server.URL+"/v1", "smm_test", smm.WithCAFile(server.caFile), smm.WithSleep(func(_ context.Context, d time.Duration) error {
				slept = append(slept, d)
				return nil
			}))
			if err != nil {
				t.Fatal(err)
			}
			post, err := c.Posts.Create(context.Background(), smm.PostCreateParams{AccountID: "acc_1", Content: "hi", Platforms: []string{"feed"}})
			if err != nil {
				t.Fatal(err)
			}
			if post.ID != "pst_1" || post.ETag != `"v1"` {
				t.Fatalf("post: %+v", post)
			}
			if len(server.keys) != 2 || server.keys[0] == "" || server.keys[0] != server.keys[1] {
				t.Fatalf("Idempotency-Keys sent: %q; want the same generated key on both attempts", server.keys)
			}
			if server.bodies[0] != server.bodies[1] || !strings.Contains(server.bodies[0], `"account_id":"acc_1"`) {
				t.Fatalf("bodies sent: %q", server.bodies)
			}
			// No Retry-After: a backoff of the client's choosing, jittered around 0.5 s.
			if len(slept) != 1 || slept[0] < 250*time.Millisecond || slept[0] > 500*time.Millisecond {
				t.Fatalf("slept %v before the retry", slept)
			}
		})
	}
}

func TestRetriesAreBoundedAndA4xxIsNotRetried(t *testing.T) {
	attempts := 0
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts++
		w.Header().Set("Content-Type", "application/problem+json")
		if r.URL.Path == "/v1/me" {
			w.WriteHeader(502)
			io.WriteString(w, `<html>bad gateway</html>`)
			return
		}
		w.WriteHeader(404)
		io.WriteString(w, `{"type":"urn:smm:problem:not_found","title":"Not Found","status":404,"detail":"No post pst_x.","code":"not_found","instance":"req_1"}`)
	}))
	defer server.Close()
	noSleep := smm.WithSleep(func(context.Context, time.Duration) error { return nil })
	c, err := smm.NewClient(server.URL, "smm_test", smm.WithCAFile(writeCertificate(t, server.Certificate().Raw)), smm.WithMaxRetries(3), noSleep)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Me(context.Background())
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || !strings.Contains(apiErr.Problem.Detail, "bad gateway") {
		t.Fatalf("a proxy's 502 page: want an *smm.APIError keeping what it said, got %v", err)
	}
	if attempts != 4 {
		t.Fatalf("WithMaxRetries(3): %d attempts, want 4", attempts)
	}
	attempts = 0
	_, err = c.Posts.Get(context.Background(), "pst_x")
	if !errors.As(err, &apiErr) || apiErr.Code != "not_found" || apiErr.RequestID != "req_1" || attempts != 1 {
		t.Fatalf("a 404 is an answer, not a failure: %d attempts, %v", attempts, err)
	}
}

func TestWhatTheServerAsksToWaitIsWaitedOrHandedBack(t *testing.T) {
	var answers []func(w http.ResponseWriter)
	attempts := 0
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer := answers[attempts]
		attempts++
		answer(w)
	}))
	defer server.Close()
	problem := func(status int, code, retryAfter string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", retryAfter)
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"type":"urn:smm:problem:%s","title":"t","status":%d,"detail":"d","code":"%s"}`, code, status, code)
		}
	}
	ok := func(w http.ResponseWriter) { io.WriteString(w, `{"event_id":"msg_1"}`) }
	var slept []time.Duration
	c, err := smm.NewClient(server.URL, "smm_key", smm.WithCAFile(writeCertificate(t, server.Certificate().Raw)), smm.WithSleep(func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}

	// The first attempt of the same POST is still running: wait the second it asks, then retry.
	answers, attempts, slept = []func(http.ResponseWriter){problem(409, "idempotency_key_in_use", "1"), ok}, 0, nil
	if accepted, err := c.Webhooks.Test(context.Background(), "whk_1"); err != nil || accepted.EventID != "msg_1" || fmt.Sprint(slept) != "[1s]" {
		t.Fatalf("409 idempotency_key_in_use: %+v, %v, slept %v", accepted, err, slept)
	}

	// An hour is not waited inside a call: the caller gets the delay to schedule.
	answers, attempts, slept = []func(http.ResponseWriter){problem(429, "rate_limited", "3600")}, 0, nil
	_, err = c.Webhooks.Test(context.Background(), "whk_1")
	var limited *smm.RateLimitError
	if !errors.As(err, &limited) || limited.RetryAfter != time.Hour || attempts != 1 || len(slept) != 0 {
		t.Fatalf("Retry-After: 3600: want a *smm.RateLimitError at once, got %v after %d attempts, slept %v", err, attempts, slept)
	}

	// Another 409 is an answer about the request itself: never retried.
	answers, attempts, slept = []func(http.ResponseWriter){problem(409, "post_not_editable", "")}, 0, nil
	var apiErr *smm.APIError
	if _, err := c.Posts.Cancel(context.Background(), "pst_1"); !errors.As(err, &apiErr) || apiErr.Code != "post_not_editable" || attempts != 1 {
		t.Fatalf("409 post_not_editable: %v after %d attempts", err, attempts)
	}
}
