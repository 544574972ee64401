package smm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"smm.local/smm"
	"smm.local/smm/examples/webhooks"
)

// The README's snippets are these programs: each is built and run as a user would run it.
func TestTheExamplesRun(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./examples/...")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/...: %v\n%s", err, out)
	}
	run := func(name string, args ...string) string {
		t.Helper()
		// The environment holds SMM_URL, SMM_API_KEY and SMM_CA_FILE, as a user's shell would.
		out, err := exec.Command(filepath.Join(bin, name), args...).CombinedOutput()
		if err != nil {
			t.Fatalf("examples/%s: %v\n%s", name, err, out)
		}
		return string(out)
	}

	// Run without its account, an example says how to run it and exits 2, rather than panicking.
	for _, name := range []string{"quickstart", "errors", "retries", "pagination", "threads"} {
		out, err := exec.Command(filepath.Join(bin, name)).CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.HasPrefix(string(out), "usage: go run . acc_") {
			t.Errorf("examples/%s with no arguments: %v, %q", name, err, out)
		}
	}

	out := run("quickstart", account.ID)
	match := regexp.MustCompile(`^(pst_\S+) scheduled\n$`).FindStringSubmatch(out)
	if match == nil {
		t.Fatalf("quickstart printed %q", out)
	}
	if post, err := c.Posts.Get(ctx, match[1]); err != nil || post.Content != "Hello from Go" {
		t.Fatalf("the quick start's post: %+v, %v", post, err)
	}

	out = run("errors", account.ID)
	for _, want := range []string{"412 precondition_failed", "422 validation_error", "#/platforms must name at least one platform"} {
		if !strings.Contains(out, want) {
			t.Errorf("errors printed %q, without %q", out, want)
		}
	}

	order, at := account.ID, tomorrow(0).Format(time.RFC3339)
	first, again := run("retries", account.ID, order, at), run("retries", account.ID, order, at)
	if !strings.HasPrefix(first, "pst_") || first != again {
		t.Fatalf("retries made %q then %q: one order must make one post", first, again)
	}

	out = run("pagination", account.ID)
	listed, err := c.Posts.List(ctx, smm.PostListParams{AccountID: account.ID, Status: "scheduled"}).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != len(listed) || len(listed) < 3 || !strings.HasPrefix(lines[0], listed[0].ID+" ") {
		t.Fatalf("pagination printed %q; the account has %d scheduled posts", out, len(listed))
	}

	out = run("threads", account.ID)
	match = regexp.MustCompile(`^(pst_\S+) 2 Threads are here: read all about it below\.\n$`).FindStringSubmatch(out)
	if match == nil {
		t.Fatalf("threads printed %q", out)
	}
	if post, err := c.Posts.Get(ctx, match[1]); err != nil || len(post.Thread) != 2 || post.FirstComment == nil || !post.Overrides["feed"].ClearFirstComment {
		t.Fatalf("the threads example's post: %+v, %v", post, err)
	}
}

func TestTheWebhookHandlerExample(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	webhook, err := c.Webhooks.Create(ctx, smm.WebhookCreateParams{URL: live.ReceiverURL, Events: []string{"webhook.test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Webhooks.Delete(ctx, webhook.ID)
	accepted, err := c.Webhooks.Test(ctx, webhook.ID)
	if err != nil {
		t.Fatal(err)
	}
	delivery := live.WaitForDelivery(t, accepted.EventID)

	var handled []*smm.WebhookEvent
	handler := webhooks.Handler(webhook.Secret, func(e *smm.WebhookEvent) { handled = append(handled, e) })
	replay := func(body string) int {
		req := httptest.NewRequest("POST", "/hooks", strings.NewReader(body))
		req.Header = delivery.Header()
		res := httptest.NewRecorder()
		handler.ServeHTTP(res, req)
		return res.Code
	}
	if code := replay(delivery.Body); code != http.StatusNoContent || len(handled) != 1 || handled[0].Type != "webhook.test" {
		t.Fatalf("the daemon's delivery: %d, handled %v", code, handled)
	}
	if code := replay(strings.Replace(delivery.Body, "webhook.test", "post.published", 1)); code != http.StatusBadRequest || len(handled) != 1 {
		t.Fatalf("a forged delivery: %d, handled %d", code, len(handled))
	}
}

// The README shows the examples as they are: each of its Go blocks must be one of these files.
func TestTheReadmeShowsTheExamplesAsTheyAre(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	files, err := filepath.Glob("examples/*/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	shown := map[string]bool{}
	for _, block := range blocks {
		for _, file := range files {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(text) == block[1] {
				shown[file] = true
			}
		}
	}
	for _, file := range files {
		if !shown[file] {
			t.Errorf("README.md does not show %s as it is", file)
		}
	}
	if len(blocks) != len(files) {
		t.Errorf("README.md has %d Go blocks for %d example files: every snippet must be an example the suite runs", len(blocks), len(files))
	}
}
