package smm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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

func TestAThreadPublishedNowListsEachPartOut(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	post, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "now", Platforms: []string{"feed"}, Thread: []smm.ThreadPart{{Content: "one"}, {Content: "two"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Polling the daemon's real scheduler over the network, bounded, not waiting out a timer.
	for deadline := time.Now().Add(20 * time.Second); (post.Status == "scheduled" || post.Status == "publishing") && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		if post, err = c.Posts.Get(ctx, post.ID); err != nil {
			t.Fatal(err)
		}
	}
	if post.Status != "published" || len(post.Targets) != 1 {
		t.Fatalf("not published: %+v", post)
	}
	target := post.Targets[0]
	var got []string
	for _, part := range target.Parts {
		if part.PlatformPostID == nil || part.URL == nil || part.PublishedAt.IsZero() {
			t.Fatalf("a part out without its id, link or time: %+v", part)
		}
		got = append(got, fmt.Sprintf("%d %s %s", part.Index, part.Kind, *part.PlatformPostID))
	}
	if want := fmt.Sprintf("[0 post %[1]s 1 thread %[1]s-1 2 thread %[1]s-2]", post.ID); fmt.Sprint(got) != want {
		t.Fatalf("parts: %v, want %s", got, want)
	}
	if *target.URL != *target.Parts[0].URL || !strings.HasSuffix(*target.Parts[2].URL, "#"+post.ID+"-2") {
		t.Fatalf("the target's link is the post's own, each part has its own: %+v", target)
	}
}
