package smm_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"smm.local/smm"
)

// feedAccount makes an account with the built-in feed platform connected, as a user would.
func feedAccount(t *testing.T, ctx context.Context, c *smm.Client) *smm.Account {
	t.Helper()
	account, err := c.Accounts.Create(ctx, smm.AccountCreateParams{Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	connection, err := c.Accounts.Connect(ctx, account.ID, smm.ConnectionCreateParams{Platform: "feed"})
	if err != nil {
		t.Fatal(err)
	}
	if connection.Platform != "feed" || connection.Status != "active" {
		t.Fatalf("feed connection: %+v", connection)
	}
	return account
}

// tomorrow is far enough ahead that no clock move of the suite makes a post due.
func tomorrow(i int) time.Time { return time.Now().Add(24*time.Hour + time.Duration(i)*time.Minute) }

func TestPostLifecycle(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	me, err := c.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if me.ID == "" || me.Limits.PerMinute == 0 {
		t.Fatalf("Me: %+v", me)
	}
	account := feedAccount(t, ctx, c)

	at := tomorrow(0).Truncate(time.Second)
	created, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "first draft", Platforms: []string{"feed"}, ScheduledAt: at})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status != "scheduled" || !created.ScheduledAt.Equal(at) || created.ETag == "" {
		t.Fatalf("created: %+v", created)
	}

	got, err := c.Posts.Get(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != created.ID || got.Content != "first draft" || got.ETag != created.ETag {
		t.Fatalf("got %+v, created %+v", got, created)
	}

	content := "second draft"
	later := at.Add(time.Hour)
	updated, err := c.Posts.Update(ctx, got.ID, smm.PostUpdateParams{Content: smm.String(content), ScheduledAt: smm.Time(later), IfMatch: got.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Content != content || !updated.ScheduledAt.Equal(later) || updated.ETag == got.ETag {
		t.Fatalf("updated: %+v (read at %s)", updated, got.ETag)
	}

	// The copy read before the update is stale now: updating from it must not overwrite.
	lost := "an edit based on the old copy"
	_, err = c.Posts.Update(ctx, got.ID, smm.PostUpdateParams{Content: &lost, IfMatch: got.ETag})
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 412 || apiErr.Code != "precondition_failed" || apiErr.RequestID == "" {
		t.Fatalf("a stale If-Match: want a 412 precondition_failed *smm.APIError, got %v", err)
	}
	if again, err := c.Posts.Get(ctx, got.ID); err != nil || again.Content != content {
		t.Fatalf("after the refused update: %+v, %v", again, err)
	}

	cancelled, err := c.Posts.Cancel(ctx, got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cancelled.Status != "cancelled" || cancelled.CancelledAt == nil {
		t.Fatalf("cancelled: %+v", cancelled)
	}
	if again, err := c.Posts.Cancel(ctx, got.ID); err != nil || again.Status != "cancelled" {
		t.Fatalf("cancelling again: %+v, %v", again, err)
	}
	_, err = c.Posts.Update(ctx, got.ID, smm.PostUpdateParams{Content: &lost})
	if !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.Code != "post_not_editable" {
		t.Fatalf("updating a cancelled post: want 409 post_not_editable, got %v", err)
	}
}

func TestListFollowsEveryPageAndAnIdempotentCreateMakesOnePost(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)

	var want []string
	for i := 0; i < 4; i++ {
		post, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: fmt.Sprintf("post %d", i), Platforms: []string{"feed"}, ScheduledAt: tomorrow(i)})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, post.ID)
	}
	// The same Idempotency-Key twice: the second call answers the first post.
	params := smm.PostCreateParams{AccountID: account.ID, Content: "once", Platforms: []string{"feed"}, ScheduledAt: tomorrow(10), IdempotencyKey: "go-sdk-" + account.ID}
	first, err := c.Posts.Create(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Posts.Create(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != second.ID {
		t.Fatalf("one Idempotency-Key made two posts: %s and %s", first.ID, second.ID)
	}
	want = append(want, first.ID)

	// Pages of 2: the pager must fetch three pages to see all five.
	pager := c.Posts.List(ctx, smm.PostListParams{AccountID: account.ID, Limit: 2})
	if pager.Current() != nil {
		t.Fatal("Current before Next must be nil")
	}
	var got []string
	for pager.Next(ctx) {
		got = append(got, pager.Current().ID)
	}
	if err := pager.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("listed %v, want %v (in scheduled order)", got, want)
	}

	none, err := c.Posts.List(ctx, smm.PostListParams{AccountID: account.ID, Status: "cancelled"}).All(ctx)
	if err != nil || len(none) != 0 {
		t.Fatalf("no cancelled posts: got %v, %v", none, err)
	}
}

func TestAValidationErrorNamesEveryField(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	_, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: "acc_missing", Content: "x", Platforms: []string{}})
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Fatalf("want a 422 *smm.APIError, got %v", err)
	}
	pointers := map[string]bool{}
	for _, f := range apiErr.Problem.Errors {
		pointers[f.Pointer] = true
	}
	if !pointers["#/platforms"] {
		t.Fatalf("the problem should point at #/platforms: %+v", apiErr.Problem)
	}
	pager := c.Posts.List(ctx, smm.PostListParams{Status: "unknown"})
	if pager.Next(ctx) || !errors.As(pager.Err(), &apiErr) || apiErr.Status != 422 {
		t.Fatalf("a bad filter: want Next false and a 422, got %v", pager.Err())
	}
}

func TestValidateMeasuresAndCreatesNothing(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)

	at := tomorrow(0).Truncate(time.Second)
	checked, err := c.Posts.Validate(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "Hello there", Platforms: []string{"feed"}, ScheduledAt: at})
	if err != nil {
		t.Fatal(err)
	}
	want := []smm.TargetMeasure{{Platform: "feed", Length: 11, Limit: 10000}}
	if !checked.Valid || !checked.ScheduledAt.Equal(at) || fmt.Sprint(checked.Targets) != fmt.Sprint(want) {
		t.Fatalf("validated: %+v", checked)
	}
	_, err = c.Posts.Validate(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "x", Platforms: []string{"myspace"}})
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || len(apiErr.Problem.Errors) == 0 || apiErr.Problem.Errors[0].Pointer != "#/platforms/0" {
		t.Fatalf("an unknown platform: want a 422 at #/platforms/0, got %v", err)
	}
	posts, err := c.Posts.List(ctx, smm.PostListParams{AccountID: account.ID}).All(ctx)
	if err != nil || len(posts) != 0 {
		t.Fatalf("validate must create nothing: got %v, %v", posts, err)
	}
}

func TestCreateManyMakesAllInOrderOrNone(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	var posts []smm.PostCreateParams
	for i := 0; i < 3; i++ {
		posts = append(posts, smm.PostCreateParams{AccountID: account.ID, Content: fmt.Sprintf("bulk %d", i), Platforms: []string{"feed"}, ScheduledAt: tomorrow(i)})
	}
	if n, err := c.Posts.ValidateMany(ctx, smm.PostBulkParams{Posts: posts}); err != nil || n != 3 {
		t.Fatalf("ValidateMany: %d, %v", n, err)
	}
	made, err := c.Posts.CreateMany(ctx, smm.PostBulkParams{Posts: posts})
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 3 || made[0].Content != "bulk 0" || made[2].Content != "bulk 2" {
		t.Fatalf("CreateMany: %+v", made)
	}
	bad := append([]smm.PostCreateParams{}, posts[0], posts[1])
	bad[1].Platforms = []string{"myspace"}
	_, err = c.Posts.CreateMany(ctx, smm.PostBulkParams{Posts: bad})
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Problem.Errors[0].Pointer != "#/posts/1/platforms/0" {
		t.Fatalf("want a 422 at #/posts/1/platforms/0, got %v", err)
	}
}

func TestASeriesIsListedBySeriesIDSkipsOneAndStops(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)
	first, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "every day", Platforms: []string{"feed"}, ScheduledAt: tomorrow(0), Repeat: &smm.RepeatParams{Interval: "P1D", Count: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if first.SeriesID == nil || first.Occurrence == nil || *first.Occurrence != 1 || first.Repeat == nil || first.Repeat.Interval != "P1D" || *first.Repeat.Count != 3 {
		t.Fatalf("first occurrence: %+v", first)
	}
	statuses := func() []string {
		var out []string
		pager := c.Posts.List(ctx, smm.PostListParams{SeriesID: *first.SeriesID})
		for pager.Next(ctx) {
			out = append(out, fmt.Sprintf("%d %s", *pager.Current().Occurrence, pager.Current().Status))
		}
		if err := pager.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Cancelled alone, the occurrence is skipped: the next one is scheduled.
	if _, err := c.Posts.Cancel(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	if got := statuses(); fmt.Sprint(got) != "[1 cancelled 2 scheduled]" {
		t.Fatalf("after a plain cancel: %v", got)
	}
	pager := c.Posts.List(ctx, smm.PostListParams{SeriesID: *first.SeriesID, Status: "scheduled"})
	if !pager.Next(ctx) {
		t.Fatalf("no scheduled occurrence: %v", pager.Err())
	}
	if _, err := c.Posts.Cancel(ctx, pager.Current().ID, smm.PostCancelParams{Series: true}); err != nil {
		t.Fatal(err)
	}
	if got := statuses(); fmt.Sprint(got) != "[1 cancelled 2 cancelled]" {
		t.Fatalf("after stopping the series: %v", got)
	}
	single, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "once", Platforms: []string{"feed"}, ScheduledAt: tomorrow(1)})
	if err != nil {
		t.Fatal(err)
	}
	var apiErr *smm.APIError
	if _, err := c.Posts.Cancel(ctx, single.ID, smm.PostCancelParams{Series: true}); !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Fatalf("series on a one-off post: want a 422, got %v", err)
	}
}

func TestADraftWaitsUntilScheduledAndQueuedPostsTakeSlotsInTurn(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	account := feedAccount(t, ctx, c)

	draft, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "an idea", Platforms: []string{"feed"}, Draft: true})
	if err != nil {
		t.Fatal(err)
	}
	if draft.Status != "draft" || !draft.ScheduledAt.IsZero() {
		t.Fatalf("draft: %+v", draft)
	}
	var apiErr *smm.APIError
	_, err = c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "nowhere", Platforms: []string{"feed"}, Queue: true})
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Problem.Code != "queue_empty" {
		t.Fatalf("a queued post with no slots: want a 422 queue_empty, got %v", err)
	}

	queue, err := c.Accounts.SetQueue(ctx, account.ID, []smm.QueueSlot{{Day: "friday", Time: "17:30"}, {Day: "monday", Time: "09:00"}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(queue.Slots) != "[{monday 09:00} {friday 17:30}]" || len(queue.Next) != 10 {
		t.Fatalf("queue: %+v", queue)
	}
	read, err := c.Accounts.Queue(ctx, account.ID)
	if err != nil || !read.Next[0].Equal(queue.Next[0]) {
		t.Fatalf("read queue: %+v, %v", read, err)
	}
	queued, err := c.Posts.Create(ctx, smm.PostCreateParams{AccountID: account.ID, Content: "queued", Platforms: []string{"feed"}, Queue: true})
	if err != nil || !queued.ScheduledAt.Equal(queue.Next[0]) {
		t.Fatalf("queued: %+v, %v", queued, err)
	}

	if _, err = c.Posts.Schedule(ctx, draft.ID, smm.PostScheduleParams{Queue: true, IfMatch: `"v999"`}); !errors.As(err, &apiErr) || apiErr.Status != 412 {
		t.Fatalf("a stale If-Match: want a 412, got %v", err)
	}
	scheduled, err := c.Posts.Schedule(ctx, draft.ID, smm.PostScheduleParams{Queue: true, IfMatch: draft.ETag})
	if err != nil || scheduled.Status != "scheduled" || !scheduled.ScheduledAt.Equal(queue.Next[1]) {
		t.Fatalf("scheduled: %+v, %v", scheduled, err)
	}
	if _, err = c.Posts.Schedule(ctx, draft.ID, smm.PostScheduleParams{}); !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.Problem.Code != "post_not_editable" {
		t.Fatalf("scheduling a scheduled post: want a 409 post_not_editable, got %v", err)
	}
}
