package smm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"smm.local/smm"
)

func TestAThreadAndAPlatformsOwnVersionReadBack(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	thread := []smm.ThreadPart{{Content: "part one"}, {Content: "part two", MediaURLs: []string{"https://example.com/two.png"}}}
	feedThread := []smm.ThreadPart{{Content: "feed part"}}
	created, err := c.Posts.Create(ctx, smm.PostCreateParams{
		AccountID: account.ID, Content: "the post", Platforms: []string{"feed"}, ScheduledAt: tomorrow(0), Thread: thread,
		Overrides: map[string]smm.PlatformOverride{"feed": {Content: "the feed's own text", Thread: feedThread}},
	})
	if err != nil {
		t.Fatal(err)
	}
	read, err := c.Posts.Get(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(read.Thread); got != "[{part one []} {part two [https://example.com/two.png]}]" {
		t.Fatalf("thread read back: %s", got)
	}
	feed, ok := read.Overrides["feed"]
	if read.FirstComment != nil || len(read.Overrides) != 1 || !ok || feed.Content != "the feed's own text" || fmt.Sprint(feed.Thread) != "[{feed part []}]" || feed.FirstComment != nil || feed.ClearFirstComment {
		t.Fatalf("read back: first comment %v, overrides %+v", read.FirstComment, read.Overrides)
	}
	if len(read.Targets) != 1 || read.Targets[0].Parts == nil || len(read.Targets[0].Parts) != 0 || read.Targets[0].Error != nil {
		t.Fatalf("a scheduled target has no part out yet: %+v", read.Targets)
	}

	checked, err := c.Posts.Validate(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "the post", Platforms: []string{"feed"}, Thread: thread,
		Overrides: map[string]smm.PlatformOverride{"feed": {Thread: feedThread}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(checked.Targets[0].Parts); got != "[{1 thread 9 10000}]" {
		t.Fatalf("validate measures the feed's own thread: %s", got)
	}

	updated, err := c.Posts.Update(ctx, created.ID, smm.PostUpdateParams{Thread: []smm.ThreadPart{}, Overrides: map[string]smm.PlatformOverride{}, IfMatch: read.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if len(updated.Thread) != 0 || len(updated.Overrides) != 0 {
		t.Fatalf("an empty thread and overrides remove them: %+v", updated)
	}
}

func TestAFirstCommentOnTheFeedIsRefusedWhereItWasGiven(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	params := smm.PostCreateParams{AccountID: account.ID, Content: "with a comment", Platforms: []string{"feed"}, ScheduledAt: tomorrow(0), FirstComment: "and a comment"}
	_, err := c.Posts.Create(ctx, params)
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || len(apiErr.Problem.Errors) != 1 || apiErr.Problem.Errors[0].Pointer != "#/first_comment" || apiErr.Problem.Errors[0].Code != "not_supported" || !strings.Contains(apiErr.Problem.Errors[0].Detail, "feed") {
		t.Fatalf("a first comment on the feed: want one 422 error at #/first_comment naming the feed, got %v", err)
	}

	params.Overrides = map[string]smm.PlatformOverride{"feed": {ClearFirstComment: true}}
	dropped, err := c.Posts.Create(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if dropped.FirstComment == nil || *dropped.FirstComment != "and a comment" || !dropped.Overrides["feed"].ClearFirstComment {
		t.Fatalf("dropped on the feed: %+v", dropped)
	}
	updated, err := c.Posts.Update(ctx, dropped.ID, smm.PostUpdateParams{ClearFirstComment: true})
	if err != nil || updated.FirstComment != nil {
		t.Fatalf("ClearFirstComment removes it: %+v, %v", updated, err)
	}

	made, err := c.Posts.CreateMany(ctx, smm.PostBulkParams{Posts: []smm.PostCreateParams{
		{AccountID: account.ID, Content: "bulk", Platforms: []string{"feed"}, ScheduledAt: tomorrow(1), Thread: []smm.ThreadPart{{Content: "bulk part"}}},
	}})
	if err != nil || len(made) != 1 || len(made[0].Thread) != 1 || made[0].Thread[0].Content != "bulk part" {
		t.Fatalf("a bulk post's thread: %+v, %v", made, err)
	}
}
