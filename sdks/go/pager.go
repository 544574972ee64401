package smm

import (
	"context"
	"net/url"
	"strconv"
)

// ListParams pages a list with no filters.
type ListParams struct {
	// Limit is the page size, 1..100 (0: the API's default, 20). The pager fetches every page.
	Limit int
}

// page is the envelope of every list.
type page[T any] struct {
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// Pager walks every item of a list, fetching the next page when the current one runs out:
//
//	for it := client.Posts.List(ctx, smm.PostListParams{}); it.Next(ctx); {
//		post := it.Current()
//	}
//	if err := it.Err(); err != nil { … }
type Pager[T any] struct {
	client  *Client
	path    string
	query   url.Values
	items   []T
	index   int
	cursor  string
	started bool
	done    bool
	err     error
}

func newPager[T any](c *Client, path string, query url.Values, limit int) *Pager[T] {
	if query == nil {
		query = url.Values{}
	}
	if limit != 0 {
		query.Set("limit", strconv.Itoa(limit))
	}
	return &Pager[T]{client: c, path: path, query: query, index: -1}
}

// Next moves to the next item, fetching a page when needed; false at the end or on an error.
func (p *Pager[T]) Next(ctx context.Context) bool {
	if p.err != nil {
		return false
	}
	p.index++
	for p.index >= len(p.items) {
		if p.done {
			return false
		}
		if err := p.fetch(ctx); err != nil {
			p.err = err
			return false
		}
	}
	return true
}

func (p *Pager[T]) fetch(ctx context.Context) error {
	query := url.Values{}
	for k, v := range p.query {
		query[k] = v
	}
	if p.started {
		query.Set("cursor", p.cursor)
	}
	var got page[T]
	if _, err := p.client.do(ctx, request{method: "GET", path: p.path, query: query, out: &got}); err != nil {
		return err
	}
	p.started = true
	p.items, p.index = got.Data, 0
	p.done = !got.HasMore || got.NextCursor == nil
	if got.NextCursor != nil {
		p.cursor = *got.NextCursor
	}
	return nil
}

// Current is the item Next moved to (nil before the first Next or after the last).
func (p *Pager[T]) Current() *T {
	if p.index < 0 || p.index >= len(p.items) {
		return nil
	}
	return &p.items[p.index]
}

// Err is the error that stopped Next, if any.
func (p *Pager[T]) Err() error { return p.err }

// All drains the pager into a slice: convenient for short lists.
func (p *Pager[T]) All(ctx context.Context) ([]T, error) {
	var all []T
	for p.Next(ctx) {
		all = append(all, *p.Current())
	}
	return all, p.Err()
}
