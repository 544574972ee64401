package smm

import (
	"context"
	"net/url"
	"time"
)

// AnalyticsMetrics are the figures of a report. A metric no platform in scope reports is nil,
// never 0.
type AnalyticsMetrics struct {
	PostsScheduled       int      `json:"posts_scheduled"`
	PostsPublished       int      `json:"posts_published"`
	PostsFailed          int      `json:"posts_failed"`
	PublishSuccessRate   *float64 `json:"publish_success_rate"`
	MedianPublishDelayMS *float64 `json:"median_publish_delay_ms"`
	Impressions          *int     `json:"impressions"`
	Likes                *int     `json:"likes"`
	Reposts              *int     `json:"reposts"`
	Replies              *int     `json:"replies"`
	Quotes               *int     `json:"quotes"`
	Clicks               *int     `json:"clicks"`
	Engagements          *int     `json:"engagements"`
	EngagementRate       *float64 `json:"engagement_rate"`
}

// PlatformMetrics are one platform's figures.
type PlatformMetrics struct {
	Platform string `json:"platform"`
	AnalyticsMetrics
}

// SeriesPoint is one day's, week's or month's figures.
type SeriesPoint struct {
	Start time.Time `json:"start"`
	AnalyticsMetrics
}

// TopPost is a target among those with the most engagements.
type TopPost struct {
	PostID      string  `json:"post_id"`
	Platform    string  `json:"platform"`
	URL         *string `json:"url"`
	Engagements int     `json:"engagements"`
}

// AnalyticsReport is publishing performance and engagement over a time range.
type AnalyticsReport struct {
	From       time.Time         `json:"from"`
	To         time.Time         `json:"to"`
	Interval   string            `json:"interval"`
	Totals     AnalyticsMetrics  `json:"totals"`
	ByPlatform []PlatformMetrics `json:"by_platform"`
	Series     []SeriesPoint     `json:"series"`
	TopPosts   []TopPost         `json:"top_posts"`
}

// AnalyticsParams chooses the range and scope of a report.
type AnalyticsParams struct {
	// From (inclusive) and To (exclusive): RFC 3339 with a zone, or a date YYYY-MM-DD (a whole
	// day in the user's timezone). Empty: the last 30 days.
	From, To string
	// WorkspaceID is the workspace reported on (default: the account's or post's, else your personal one).
	WorkspaceID string
	AccountID   string
	Platform    string
	PostID      string
	// Interval is day (default), week or month.
	Interval string
}

// AnalyticsService is /v1/analytics.
type AnalyticsService struct{ c *Client }

// Get reports on the range (GET /v1/analytics).
func (s *AnalyticsService) Get(ctx context.Context, p AnalyticsParams) (*AnalyticsReport, error) {
	q := url.Values{}
	setIf(q, "from", p.From)
	setIf(q, "to", p.To)
	setIf(q, "workspace_id", p.WorkspaceID)
	setIf(q, "account_id", p.AccountID)
	setIf(q, "platform", p.Platform)
	setIf(q, "post_id", p.PostID)
	setIf(q, "interval", p.Interval)
	return call[AnalyticsReport](ctx, s.c, request{method: "GET", path: "/v1/analytics", query: q})
}
