package smm

// Threads, first comments and per-platform versions: the parts of a post after the post itself.

import (
	"encoding/json"
	"time"
)

// ThreadPart is one part of a thread: its text, its media, or both.
type ThreadPart struct {
	Content   string   `json:"content,omitempty"`
	MediaURLs []string `json:"media_urls,omitempty"`
}

// PlatformOverride is one platform's own version of a post: each field set replaces the post's
// there, the others stay the post's own.
type PlatformOverride struct {
	// Content is this platform's text; empty: the post's.
	Content string
	// MediaURLs are this platform's media; nil: the post's, an empty slice: none there.
	MediaURLs []string
	// Thread is this platform's thread; nil: the post's, an empty slice: no thread there.
	Thread []ThreadPart
	// FirstComment is this platform's first comment; nil: the post's (unless ClearFirstComment).
	FirstComment *string
	// ClearFirstComment drops the first comment on this platform (first_comment null), as a
	// platform with neither replies nor comments needs; FirstComment must then be nil.
	ClearFirstComment bool
}

// MarshalJSON sends only the fields set, so an empty Thread or MediaURLs still means "none here".
func (o PlatformOverride) MarshalJSON() ([]byte, error) {
	body := map[string]any{}
	if o.Content != "" {
		body["content"] = o.Content
	}
	if o.MediaURLs != nil {
		body["media_urls"] = o.MediaURLs
	}
	if o.Thread != nil {
		body["thread"] = o.Thread
	}
	if o.FirstComment != nil {
		body["first_comment"] = *o.FirstComment
	} else if o.ClearFirstComment {
		body["first_comment"] = nil
	}
	return json.Marshal(body)
}

// UnmarshalJSON reads an override as the API answers it, first_comment null as ClearFirstComment.
func (o *PlatformOverride) UnmarshalJSON(data []byte) error {
	var fields struct {
		Content      string          `json:"content"`
		MediaURLs    []string        `json:"media_urls"`
		Thread       []ThreadPart    `json:"thread"`
		FirstComment json.RawMessage `json:"first_comment"`
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	*o = PlatformOverride{Content: fields.Content, MediaURLs: fields.MediaURLs, Thread: fields.Thread}
	switch {
	case fields.FirstComment == nil:
	case string(fields.FirstComment) == "null":
		o.ClearFirstComment = true
	default:
		var comment string
		if err := json.Unmarshal(fields.FirstComment, &comment); err != nil {
			return err
		}
		o.FirstComment = &comment
	}
	return nil
}

// PublishedPart is one part of a target that is out on its platform.
type PublishedPart struct {
	// Index is 0 for the post, then the first comment (if any), then the thread parts in order.
	Index int `json:"index"`
	// Kind is post, first_comment or thread.
	Kind           string    `json:"kind"`
	PlatformPostID *string   `json:"platform_post_id"`
	URL            *string   `json:"url"`
	PublishedAt    time.Time `json:"published_at"`
}

// PartMeasure is one part's length on a platform, against its limit; Index as in Target.Parts.
type PartMeasure struct {
	Index int `json:"index"`
	// Kind is first_comment or thread.
	Kind   string `json:"kind"`
	Length int    `json:"length"`
	Limit  int    `json:"limit"`
}
