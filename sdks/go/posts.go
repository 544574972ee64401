package smm

import (
	"context"
	"net/url"
	"time"
)

// Post is a piece of content scheduled to one account's platforms.
type Post struct {
	ID string `json:"id"`
	// WorkspaceID is its account's workspace.
	WorkspaceID string   `json:"workspace_id"`
	AccountID   string   `json:"account_id"`
	Content     string   `json:"content"`
	MediaURLs   []string `json:"media_urls"`
	// Media are its uploaded media, after MediaURLs, each with the alt text it goes out with.
	Media     []PostMedia `json:"media"`
	Platforms []string    `json:"platforms"`
	// Thread is the parts published after the post, in order (empty when it has none).
	Thread []ThreadPart `json:"thread"`
	// FirstComment is published right under the post; nil when there is none.
	FirstComment *string `json:"first_comment"`
	// Overrides are the per-platform versions as given, keyed by platform (empty when none).
	Overrides map[string]PlatformOverride `json:"overrides"`
	// ScheduledAt is the zero time for a draft given no time yet.
	ScheduledAt time.Time `json:"scheduled_at"`
	// Status is draft, scheduled, publishing, published, partially_published, failed or cancelled.
	Status      string     `json:"status"`
	Targets     []Target   `json:"targets"`
	CreatedAt   time.Time  `json:"created_at"`
	UpdatedAt   time.Time  `json:"updated_at"`
	PublishedAt *time.Time `json:"published_at"`
	CancelledAt *time.Time `json:"cancelled_at"`
	// SeriesID is the series (ser_…) this post is an occurrence of, Occurrence which one (from
	// 1) and Repeat how the series repeats; all nil for a one-off post.
	SeriesID   *string `json:"series_id"`
	Occurrence *int    `json:"occurrence"`
	Repeat     *Repeat `json:"repeat"`
	// ETag is the version this copy was read at; pass it as PostUpdateParams.IfMatch so an
	// update fails (412) instead of overwriting a change made since. Empty from a list.
	ETag string `json:"-"`
}

// Repeat is how a series repeats.
type Repeat struct {
	// Interval is an ISO 8601 duration: P1W, PT6H, P1M…
	Interval string `json:"interval"`
	// Count is how many occurrences in all, the first included; nil when the series ends by Until.
	Count *int       `json:"count"`
	Until *time.Time `json:"until"`
	// Timezone is the zone whose wall-clock time calendar intervals keep.
	Timezone string    `json:"timezone"`
	StartsAt time.Time `json:"starts_at"`
}

// RepeatParams makes a new post the first occurrence of a series: Interval (an ISO 8601
// duration, at least PT1H) and Count (the first included) or Until, or both.
type RepeatParams struct {
	Interval string
	Count    int
	Until    time.Time
}

// Target is how a post fares on one platform.
type Target struct {
	Platform string `json:"platform"`
	// Status is pending, publishing, published, failed or unconfirmed.
	Status         string       `json:"status"`
	Attempts       int          `json:"attempts"`
	PlatformPostID *string      `json:"platform_post_id"`
	URL            *string      `json:"url"`
	PublishedAt    *time.Time   `json:"published_at"`
	Error          *TargetError `json:"error"`
	// Parts are the parts already out, in order (the post, its first comment, its thread parts):
	// a retry resumes after the last of them.
	Parts []PublishedPart `json:"parts"`
}

// TargetError is why a target failed.
type TargetError struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
	// Part is, in a post of several parts, the index (as in Target.Parts) of the part that
	// failed; the parts before it are out. Nil otherwise.
	Part *int `json:"part"`
}

// PostValidation is what Validate answers for a post Create would accept.
type PostValidation struct {
	Valid bool `json:"valid"`
	// ScheduledAt is when the post would be published, as Create would store it (now when none
	// was given, the next free slot with Queue); the zero time for a draft with no time.
	ScheduledAt time.Time `json:"scheduled_at"`
	// Targets measure the text on each platform, the way it counts, for "212/280".
	Targets []TargetMeasure `json:"targets"`
}

// TargetMeasure is a text's length as one platform counts it, against that platform's limit.
type TargetMeasure struct {
	Platform string `json:"platform"`
	Length   int    `json:"length"`
	Limit    int    `json:"limit"`
	// Parts measure the first comment and thread parts of this platform's version likewise.
	Parts []PartMeasure `json:"parts"`
	// Warnings say what goes out on this platform otherwise than given, though the post is
	// valid: "alt_text_not_sent" at an uploaded media whose alt text the platform has no place for.
	Warnings []FieldError `json:"warnings"`
}

// PostCreateParams is a new post.
type PostCreateParams struct {
	AccountID string
	// Content is required unless MediaURLs or Media are given.
	Content   string
	MediaURLs []string
	// Media are uploaded media (MediaService.Upload), after MediaURLs.
	Media     []MediaRef
	Platforms []string
	// ScheduledAt is when to publish; the zero time publishes now. For a draft: its planned time.
	ScheduledAt time.Time
	// Repeat, if set, makes the post the first occurrence of a series.
	Repeat *RepeatParams
	// Queue publishes at the account's next free queue slot (AccountsService.SetQueue) instead
	// of at ScheduledAt; a 422 queue_empty when the account has none.
	Queue bool
	// Draft keeps the post as a draft, published only once Schedule schedules it.
	Draft bool
	// Thread is up to 24 parts published after the post, in order.
	Thread []ThreadPart
	// FirstComment is published right under the post (a reply, or a comment where the platform
	// has comments); empty: none. A platform with neither refuses it: drop it there with
	// Overrides{"feed": {ClearFirstComment: true}}.
	FirstComment string
	// Overrides give platforms their own version, keyed by platform name.
	Overrides map[string]PlatformOverride
	// IdempotencyKey makes a repeated call answer the first post instead of making another;
	// generated when empty (and reused by the client's own retries either way).
	IdempotencyKey string
}

// PostScheduleParams say when a draft is to be published: at ScheduledAt, at the account's next
// free queue slot (Queue), or now (neither).
type PostScheduleParams struct {
	ScheduledAt time.Time
	Queue       bool
	// IfMatch is the ETag of the draft as last read: scheduling is refused with a 412
	// precondition_failed if it has changed since.
	IfMatch        string
	IdempotencyKey string
}

// PostUpdateParams changes a scheduled post or a draft: nil fields are left as they are.
type PostUpdateParams struct {
	Content   *string
	MediaURLs []string
	// Media replaces the uploaded media; an empty slice removes them.
	Media       []MediaRef
	ScheduledAt *time.Time
	Platforms   []string
	// Thread replaces the thread; an empty slice removes it.
	Thread []ThreadPart
	// FirstComment replaces the first comment; ClearFirstComment removes it (FirstComment nil).
	FirstComment      *string
	ClearFirstComment bool
	// Overrides replaces the whole set of per-platform versions; an empty map removes them all.
	Overrides map[string]PlatformOverride
	// IfMatch is the ETag of the post as last read (Post.ETag): the update is refused with a
	// 412 precondition_failed if the post has changed since. Empty: update whatever it is now.
	IfMatch string
}

// PostListParams filters and pages the posts, ordered by scheduled time.
type PostListParams struct {
	AccountID string
	// WorkspaceID keeps one workspace's posts (default: every workspace you belong to).
	WorkspaceID string
	// Status is one of Post.Status's values.
	Status   string
	Platform string
	// From and To bound scheduled_at: at or after From, before To (zero: unbounded).
	From, To time.Time
	// Order is "asc" (default) or "desc".
	Order string
	// SeriesID keeps a series' occurrences only (ser_…).
	SeriesID string
	// Limit is the page size, 1..100 (0: 20). The pager fetches every page.
	Limit int
}

// PostCancelParams are the options of Cancel.
type PostCancelParams struct {
	// Series stops the series of the occurrence cancelled: every scheduled occurrence is
	// cancelled and none follows. Without it, the series goes on with its next occurrence.
	Series bool
}

// PostsService is /v1/posts.
type PostsService struct{ c *Client }

// body is the request body of Create and Validate: the two take the same post.
func (p PostCreateParams) body() map[string]any {
	body := map[string]any{"account_id": p.AccountID, "platforms": p.Platforms}
	if p.Content != "" {
		body["content"] = p.Content
	}
	if p.MediaURLs != nil {
		body["media_urls"] = p.MediaURLs
	}
	if p.Media != nil {
		body["media"] = p.Media
	}
	if !p.ScheduledAt.IsZero() {
		body["scheduled_at"] = timestamp(p.ScheduledAt)
	}
	if p.Repeat != nil {
		repeat := map[string]any{"interval": p.Repeat.Interval}
		if p.Repeat.Count != 0 {
			repeat["count"] = p.Repeat.Count
		}
		if !p.Repeat.Until.IsZero() {
			repeat["until"] = timestamp(p.Repeat.Until)
		}
		body["repeat"] = repeat
	}
	if p.Queue {
		body["queue"] = true
	}
	if p.Draft {
		body["draft"] = true
	}
	if p.Thread != nil {
		body["thread"] = p.Thread
	}
	if p.FirstComment != "" {
		body["first_comment"] = p.FirstComment
	}
	if p.Overrides != nil {
		body["overrides"] = p.Overrides
	}
	return body
}

// Create schedules a post (POST /v1/posts).
func (s *PostsService) Create(ctx context.Context, p PostCreateParams) (*Post, error) {
	return s.c.post(ctx, request{method: "POST", path: "/v1/posts", body: p.body(), idempotencyKey: p.IdempotencyKey})
}

// Validate checks a post exactly as Create would and creates nothing (POST /v1/posts/validate):
// each platform's length and limit, or the same 422 *APIError. p.IdempotencyKey, if given, is
// honoured as on any POST.
func (s *PostsService) Validate(ctx context.Context, p PostCreateParams) (*PostValidation, error) {
	var out PostValidation
	if _, err := s.c.do(ctx, request{method: "POST", path: "/v1/posts/validate", body: p.body(), idempotencyKey: p.IdempotencyKey, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// PostBulkParams are up to 500 posts to create together. Each post's own IdempotencyKey is
// ignored: the request has one.
type PostBulkParams struct {
	Posts          []PostCreateParams
	IdempotencyKey string
}

func bulkBody(p PostBulkParams, dryRun bool) map[string]any {
	items := make([]map[string]any, len(p.Posts))
	for i, post := range p.Posts {
		items[i] = post.body()
	}
	body := map[string]any{"posts": items}
	if dryRun {
		body["dry_run"] = true
	}
	return body
}

// CreateMany schedules up to 500 posts in one request (POST /v1/posts/bulk): all, or none when
// any is invalid (a 422 whose pointers are like #/posts/3/content). The posts come back in order.
func (s *PostsService) CreateMany(ctx context.Context, p PostBulkParams) ([]*Post, error) {
	var out struct {
		Data []*Post `json:"data"`
	}
	if _, err := s.c.do(ctx, request{method: "POST", path: "/v1/posts/bulk", body: bulkBody(p, false), idempotencyKey: p.IdempotencyKey, out: &out}); err != nil {
		return nil, err
	}
	return out.Data, nil
}

// ValidateMany checks posts as CreateMany would, creating nothing, and answers their count.
func (s *PostsService) ValidateMany(ctx context.Context, p PostBulkParams) (int, error) {
	var out struct {
		Count int `json:"count"`
	}
	if _, err := s.c.do(ctx, request{method: "POST", path: "/v1/posts/bulk", body: bulkBody(p, true), idempotencyKey: p.IdempotencyKey, out: &out}); err != nil {
		return 0, err
	}
	return out.Count, nil
}

// Get reads a post with its ETag (GET /v1/posts/{id}).
func (s *PostsService) Get(ctx context.Context, id string) (*Post, error) {
	return s.c.post(ctx, request{method: "GET", path: pathOf("/v1/posts/{id}", id)})
}

// Update changes a scheduled post or a draft (PUT /v1/posts/{id}).
func (s *PostsService) Update(ctx context.Context, id string, p PostUpdateParams) (*Post, error) {
	body := map[string]any{}
	if p.Content != nil {
		body["content"] = *p.Content
	}
	if p.MediaURLs != nil {
		body["media_urls"] = p.MediaURLs
	}
	if p.Media != nil {
		body["media"] = p.Media
	}
	if p.ScheduledAt != nil {
		body["scheduled_at"] = timestamp(*p.ScheduledAt)
	}
	if p.Platforms != nil {
		body["platforms"] = p.Platforms
	}
	if p.Thread != nil {
		body["thread"] = p.Thread
	}
	if p.FirstComment != nil {
		body["first_comment"] = *p.FirstComment
	} else if p.ClearFirstComment {
		body["first_comment"] = nil
	}
	if p.Overrides != nil {
		body["overrides"] = p.Overrides
	}
	return s.c.post(ctx, request{method: "PUT", path: pathOf("/v1/posts/{id}", id), body: body, ifMatch: p.IfMatch})
}

// Schedule turns a draft into a scheduled post, checking it again as Create would
// (POST /v1/posts/{id}/schedule); a post that is not a draft is a 409 post_not_editable.
func (s *PostsService) Schedule(ctx context.Context, id string, p PostScheduleParams) (*Post, error) {
	body := map[string]any{}
	if !p.ScheduledAt.IsZero() {
		body["scheduled_at"] = timestamp(p.ScheduledAt)
	}
	if p.Queue {
		body["queue"] = true
	}
	return s.c.post(ctx, request{method: "POST", path: pathOf("/v1/posts/{id}/schedule", id), body: body, ifMatch: p.IfMatch, idempotencyKey: p.IdempotencyKey})
}

// Cancel cancels a scheduled post or a draft; cancelling it again answers the cancelled post (DELETE /v1/posts/{id}).
// An occurrence of a series is cancelled alone unless PostCancelParams{Series: true} is passed
// (optional, so calls written before series keep compiling).
func (s *PostsService) Cancel(ctx context.Context, id string, p ...PostCancelParams) (*Post, error) {
	q := url.Values{}
	if len(p) > 0 && p[0].Series {
		q.Set("series", "true")
	}
	return s.c.post(ctx, request{method: "DELETE", path: pathOf("/v1/posts/{id}", id), query: q})
}

// Retry re-queues the failed and unconfirmed targets of a failed or partially published post
// (POST /v1/posts/{id}/retry).
func (s *PostsService) Retry(ctx context.Context, id string) (*Post, error) {
	return s.c.post(ctx, request{method: "POST", path: pathOf("/v1/posts/{id}/retry", id)})
}

// List walks every post that matches p (GET /v1/posts), page after page.
func (s *PostsService) List(ctx context.Context, p PostListParams) *Pager[Post] {
	q := url.Values{}
	setIf(q, "account_id", p.AccountID)
	setIf(q, "workspace_id", p.WorkspaceID)
	setIf(q, "status", p.Status)
	setIf(q, "platform", p.Platform)
	setIf(q, "order", p.Order)
	setIf(q, "series_id", p.SeriesID)
	if !p.From.IsZero() {
		q.Set("from", timestamp(p.From))
	}
	if !p.To.IsZero() {
		q.Set("to", timestamp(p.To))
	}
	return newPager[Post](s.c, "/v1/posts", q, p.Limit)
}

// post sends a request answered by a post, and keeps the answer's ETag on it.
func (c *Client) post(ctx context.Context, r request) (*Post, error) {
	var post Post
	r.out = &post
	header, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	post.ETag = header.Get("ETag")
	return &post, nil
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func setIf(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}
