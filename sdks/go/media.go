package smm

import (
	"context"
	"net/url"
	"time"
)

// Media is an image or a video uploaded to smm, and its public URL.
type Media struct {
	ID string `json:"id"`
	// ContentType is image/jpeg, image/png, image/gif, image/webp, video/mp4 or video/quicktime, as read from the bytes.
	ContentType string `json:"content_type"`
	Bytes       int64  `json:"bytes"`
	SHA256      string `json:"sha256"`
	Width       *int   `json:"width"`
	Height      *int   `json:"height"`
	// DurationMS is a video's length; nil for an image.
	DurationMS *int    `json:"duration_ms"`
	AltText    *string `json:"alt_text"`
	// URL serves the bytes to anyone who has it, without a key.
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
}

// MediaUpdateParams changes a media's alt text; nil removes it.
type MediaUpdateParams struct {
	AltText *string `json:"alt_text"`
}

// MediaService is /v1/media.
type MediaService struct{ c *Client }

// Upload sends a file's bytes with their content type (POST /v1/media).
func (s *MediaService) Upload(ctx context.Context, data []byte, contentType string) (*Media, error) {
	return call[Media](ctx, s.c, request{method: "POST", path: "/v1/media", raw: data, contentType: contentType})
}

// List walks your media, newest first (GET /v1/media).
func (s *MediaService) List(ctx context.Context) *Pager[Media] {
	return newPager[Media](s.c, "/v1/media", url.Values{}, 0)
}

// Get reads one media (GET /v1/media/{id}).
func (s *MediaService) Get(ctx context.Context, id string) (*Media, error) {
	return call[Media](ctx, s.c, request{method: "GET", path: pathOf("/v1/media/{id}", id)})
}

// Update changes a media's alt text (PATCH /v1/media/{id}).
func (s *MediaService) Update(ctx context.Context, id string, p MediaUpdateParams) (*Media, error) {
	return call[Media](ctx, s.c, request{method: "PATCH", path: pathOf("/v1/media/{id}", id), body: p})
}

// Delete deletes a media; a *Error with code media_in_use while a draft, scheduled or publishing
// post uses it (DELETE /v1/media/{id}).
func (s *MediaService) Delete(ctx context.Context, id string) error {
	_, err := s.c.do(ctx, request{method: "DELETE", path: pathOf("/v1/media/{id}", id)})
	return err
}

// File reads the bytes behind a media's public URL by its last segment, <token>.<ext> (GET /media/{file}).
func (s *MediaService) File(ctx context.Context, file string) ([]byte, error) {
	var data []byte
	_, err := s.c.do(ctx, request{method: "GET", path: pathOf("/media/{file}", file), out: &data})
	return data, err
}
