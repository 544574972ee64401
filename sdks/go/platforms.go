package smm

import "context"

// Platform is one platform the daemon publishes to: how it is connected and what a post on it
// may hold.
type Platform struct {
	// Name is the API's name for it: feed, mastodon, bluesky…
	Name  string `json:"name"`
	Label string `json:"label"`
	// Auth is credentials (Accounts.Connect takes them) or oauth2 (approved in a browser).
	Auth string `json:"auth"`
	// Credentials are the credential fields Accounts.Connect takes for it.
	Credentials []string       `json:"credentials"`
	Limits      PlatformLimits `json:"limits"`
}

// PlatformLimits is what a post on a platform may hold. A connection may have its own (a
// Mastodon instance's); these are the platform's defaults.
type PlatformLimits struct {
	Text  TextLimits  `json:"text"`
	Media MediaLimits `json:"media"`
}

// TextLimits is a platform's text limit and how it counts a character.
type TextLimits struct {
	Max int `json:"max"`
	// Count is graphemes, code_points, utf16 or mastodon (graphemes, each link as URLLength).
	Count string `json:"count"`
	// CaptionMax is the limit when the post has media; nil: Max applies.
	CaptionMax *int `json:"caption_max"`
	// URLLength is what every link counts, however long; nil: links count as written.
	URLLength *int `json:"url_length"`
	// MaxBytes is a second limit in UTF-8 bytes; nil: none.
	MaxBytes *int `json:"max_bytes"`
	// MediaLinks: the media URLs are sent in the text, one a line, and count toward Max.
	MediaLinks bool `json:"media_links"`
}

// MediaLimits is how many media a post may have, and of which types.
type MediaLimits struct {
	// Max is the most media URLs a post may have; nil when smm enforces none.
	Max *int `json:"max"`
	// Required: a post without media is refused.
	Required bool `json:"required"`
	// Types are the media types the platform takes; nil: any it links to.
	Types []string `json:"types"`
}

// PlatformsService is /v1/platforms.
type PlatformsService struct{ c *Client }

// List walks the platforms this daemon publishes to, in a fixed order (GET /v1/platforms; one
// page, there are few).
func (s *PlatformsService) List(ctx context.Context) *Pager[Platform] {
	return newPager[Platform](s.c, "/v1/platforms", nil, 0)
}
