package smm

import (
	"context"
	"net/url"
	"time"
)

// ReviewLink is a link that lets someone without an account see a post and approve it or ask
// for changes. URL is set only on the one CreateReviewLink answers: only its token's hash is kept.
type ReviewLink struct {
	ID        string     `json:"id"`
	PostID    string     `json:"post_id"`
	CreatedBy Actor      `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt time.Time  `json:"expires_at"`
	RevokedAt *time.Time `json:"revoked_at"`
	// State is "active", "expired" or "revoked".
	State string `json:"state"`
	URL   string `json:"url,omitempty"`
}

// CreateReviewLink makes a review link to a post (admins and owners); expiresIn of zero is the
// default, a week (POST /v1/posts/{id}/review-links).
func (s *PostsService) CreateReviewLink(ctx context.Context, id string, expiresIn time.Duration) (*ReviewLink, error) {
	body := map[string]any{}
	if expiresIn > 0 {
		body["expires_in"] = int64(expiresIn / time.Second)
	}
	return call[ReviewLink](ctx, s.c, request{method: "POST", path: pathOf("/v1/posts/{id}/review-links", id), body: body})
}

// ReviewLinks walks a post's review links, oldest first (GET /v1/posts/{id}/review-links).
func (s *PostsService) ReviewLinks(ctx context.Context, id string) *Pager[ReviewLink] {
	return newPager[ReviewLink](s.c, pathOf("/v1/posts/{id}/review-links", id), url.Values{}, 0)
}

// RevokeReviewLink revokes a review link: its page says so from then on
// (DELETE /v1/posts/{id}/review-links/{link_id}).
func (s *PostsService) RevokeReviewLink(ctx context.Context, id, linkID string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/posts/{id}/review-links/{link_id}", id, linkID)})
	return err
}
