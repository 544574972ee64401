package smm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
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

// MediaRef names an uploaded media on a post, in order; AltText, when set, is the post's own
// alt text for it instead of the media's.
type MediaRef struct {
	ID      string  `json:"id"`
	AltText *string `json:"alt_text,omitempty"`
}

// PostMedia is an uploaded media as a post shows it, with the alt text it goes out with.
type PostMedia struct {
	ID          string  `json:"id"`
	URL         string  `json:"url"`
	ContentType string  `json:"content_type"`
	Width       *int    `json:"width"`
	Height      *int    `json:"height"`
	AltText     *string `json:"alt_text"`
}

// MediaUpdateParams changes a media's alt text; nil removes it.
type MediaUpdateParams struct {
	AltText *string `json:"alt_text"`
}

// MediaService is /v1/media.
type MediaService struct{ c *Client }

// MediaUploadParams say what an upload is.
type MediaUploadParams struct {
	// ContentType is image/jpeg, image/png, image/gif, image/webp, video/mp4 or video/quicktime.
	ContentType string
	// AltText, when not empty, is the media's alt text.
	AltText string
	// OnProgress, when set, is told as the bytes leave: how many of total have been sent.
	OnProgress func(sent, total int64)
}

// Upload sends bytes (POST /v1/media). A *Error tells a refusal: media_type_mismatch (the bytes
// are another type), unsupported_media_type, media_too_large, media_quota_exceeded.
func (s *MediaService) Upload(ctx context.Context, data []byte, p MediaUploadParams) (*Media, error) {
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	return s.upload(ctx, p, int64(len(data)), open)
}

// UploadFile sends the file at path (POST /v1/media), read from the disk as it is sent, never
// whole in memory; a retry reads it again from its start.
func (s *MediaService) UploadFile(ctx context.Context, path string, p MediaUploadParams) (*Media, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("smm: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("smm: %s is not a regular file", path)
	}
	return s.upload(ctx, p, info.Size(), func() (io.ReadCloser, error) { return os.Open(path) })
}

func (s *MediaService) upload(ctx context.Context, p MediaUploadParams, length int64, open func() (io.ReadCloser, error)) (*Media, error) {
	query := url.Values{}
	if p.AltText != "" {
		query.Set("alt_text", p.AltText)
	}
	body := &upload{open: open, length: length, contentType: p.ContentType, progress: p.OnProgress}
	return call[Media](ctx, s.c, request{method: "POST", path: "/v1/media", query: query, upload: body})
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
