package smm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"smm.local/smm"
)

func TestAccountsKeysAIAnalyticsAndFeeds(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)

	platforms, err := c.Platforms.List(ctx).All(ctx)
	if err != nil || len(platforms) < 2 || platforms[0].Name != "feed" || platforms[0].Limits.Media.Max != nil {
		t.Fatalf("Platforms.List: %+v, %v", platforms, err)
	}
	for _, p := range platforms {
		if p.Name == "telegram" && (p.Limits.Text.Max != 4096 || p.Limits.Text.CaptionMax == nil || *p.Limits.Text.CaptionMax != 1024 || p.Limits.Text.Count != "utf16") {
			t.Fatalf("telegram's limits: %+v", p.Limits.Text)
		}
	}

	got, err := c.Accounts.Get(ctx, account.ID)
	if err != nil || len(got.Connections) != 1 || got.Connections[0].Platform != "feed" {
		t.Fatalf("Get: %+v, %v", got, err)
	}
	onFeed, err := c.Accounts.List(ctx, smm.AccountListParams{Platform: "feed", Limit: 100}).All(ctx)
	if err != nil || !containsAccount(onFeed, account.ID) {
		t.Fatalf("List(feed) should hold %s: %v, %v", account.ID, onFeed, err)
	}
	rss, err := c.Feeds.RSS(ctx, account.ID)
	if err != nil || !strings.Contains(string(rss), "<rss") {
		t.Fatalf("RSS: %.200s, %v", rss, err)
	}
	if err := c.Accounts.Disconnect(ctx, account.ID, "feed"); err != nil {
		t.Fatal(err)
	}
	_, err = c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "x", Platforms: []string{"feed"}, ScheduledAt: tomorrow(0)})
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || len(apiErr.Problem.Errors) == 0 || apiErr.Problem.Errors[0].Code != "platform_not_connected" {
		t.Fatalf("posting to a disconnected platform: %v", err)
	}

	key, err := c.APIKeys.Create(ctx, smm.APIKeyCreateParams{Name: "go sdk", Scopes: []string{"profile:read"}, ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil || !strings.HasPrefix(key.Secret, "smm_") || key.ExpiresAt == nil {
		t.Fatalf("Create key: %+v, %v", key, err)
	}
	keys, err := c.APIKeys.List(ctx, smm.ListParams{}).All(ctx)
	if err != nil || len(keys) < 2 {
		t.Fatalf("List keys: %v, %v", keys, err)
	}
	for _, k := range keys {
		if k.Secret != "" {
			t.Fatalf("a listed key shows its secret: %+v", k)
		}
	}
	scoped, err := smm.NewClient(live.URL, key.Secret, smm.WithCAFile(live.CAFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scoped.Posts.Get(ctx, "pst_x"); !errors.As(err, &apiErr) || apiErr.Status != 403 || apiErr.Code != "insufficient_scope" {
		t.Fatalf("a key without posts:read: %v", err)
	}
	if err := c.APIKeys.Revoke(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := scoped.Me(ctx); !errors.As(err, &apiErr) || apiErr.Status != 401 {
		t.Fatalf("a revoked key: %v", err)
	}

	drafts, err := c.AI.Generate(ctx, smm.AIGenerateParams{Prompt: "We open a new shop in Lyon on Monday", Platforms: []string{"mastodon"}, Variants: 2, Tone: "friendly"})
	if err != nil || len(drafts.Variants) != 2 || drafts.Variants[0].Platform == nil || *drafts.Variants[0].Platform != "mastodon" {
		t.Fatalf("Generate: %+v, %v", drafts, err)
	}

	report, err := c.Analytics.Get(ctx, smm.AnalyticsParams{AccountID: account.ID, Interval: "week"})
	if err != nil || report.Interval != "week" || len(report.Series) == 0 || !report.From.Before(report.To) {
		t.Fatalf("Analytics: %+v, %v", report, err)
	}
	if report.Totals.Impressions != nil {
		t.Fatalf("no platform reported impressions: want nil, got %d", *report.Totals.Impressions)
	}
	_, err = c.Analytics.Get(ctx, smm.AnalyticsParams{From: "yesterday"})
	if !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Fatalf("a bad from: %v", err)
	}
}

func containsAccount(list []smm.Account, id string) bool {
	for _, a := range list {
		if a.ID == id {
			return true
		}
	}
	return false
}
