package smm

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// request is one API call: what every resource method fills in and hands to Client.do.
type request struct {
	method string
	// path is the contract's path with its parameters filled in, e.g. /v1/posts/pst_….
	path  string
	query url.Values
	// body is sent as JSON when not nil.
	body any
	// upload, when not nil, is the body: bytes sent as they are (a media file).
	upload *upload
	// idempotencyKey is sent on a POST; one is generated when it is empty.
	idempotencyKey string
	ifMatch        string
	// out receives the decoded JSON answer; a *[]byte receives the raw body; nil discards it.
	out any
}

// pathOf fills the {placeholders} of a contract path, in order, escaping each value.
func pathOf(template string, values ...string) string {
	var b strings.Builder
	for _, v := range values {
		open := strings.IndexByte(template, '{')
		end := strings.IndexByte(template, '}')
		if open < 0 || end < open {
			break
		}
		b.WriteString(template[:open])
		b.WriteString(url.PathEscape(v))
		template = template[end+1:]
	}
	b.WriteString(template)
	return b.String()
}

// do sends r, retrying what is safe to retry, and decodes the answer into r.out. It returns
// the successful response's headers (an ETag, say).
func (c *Client) do(ctx context.Context, r request) (http.Header, error) {
	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("smm: encoding the request body: %w", err)
		}
	}
	// One key for the whole call, not one per attempt: the daemon must see a retry as the same
	// request, so a create that succeeded but whose answer was lost is not made twice.
	key := r.idempotencyKey
	if r.method == http.MethodPost && key == "" {
		key = newIdempotencyKey()
	}
	for attempt := 0; ; attempt++ {
		header, wait, err := c.attempt(ctx, r, body, key)
		if err == nil || wait < 0 || attempt >= c.maxRetries || ctx.Err() != nil {
			return header, err
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attempt sends r once. On failure, wait says whether and when to retry: < 0 never, 0 after a
// backoff of the client's choosing, > 0 after exactly that long (the server's Retry-After).
func (c *Client) attempt(ctx context.Context, r request, body []byte, key string) (http.Header, time.Duration, error) {
	target := c.root + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	if r.upload != nil {
		// Opened anew for each attempt: a retry sends the file again from its start.
		file, err := r.upload.open()
		if err != nil {
			return nil, -1, fmt.Errorf("smm: %s %s: %w", r.method, r.path, err)
		}
		defer file.Close()
		reader = &progressReader{r: file, total: r.upload.length, progress: r.upload.progress}
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, reader)
	if err != nil {
		return nil, -1, fmt.Errorf("smm: %s %s: %w", r.method, r.path, err)
	}
	if r.upload != nil {
		req.ContentLength = r.upload.length
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	if _, raw := r.out.(*[]byte); !raw {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", "smm-go/"+Version)
	if r.upload != nil {
		req.Header.Set("Content-Type", r.upload.contentType)
	} else if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if r.ifMatch != "" {
		req.Header.Set("If-Match", r.ifMatch)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, retryableTransport(ctx, err), fmt.Errorf("smm: %s %s: %w", r.method, r.path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, retryableTransport(ctx, err), fmt.Errorf("smm: %s %s: reading the answer: %w", r.method, r.path, err)
	}
	if res.StatusCode >= 400 {
		return nil, retryDelay(res), problemError(res, data)
	}
	switch out := r.out.(type) {
	case nil:
	case *[]byte:
		*out = data
	default:
		if err := json.Unmarshal(data, out); err != nil {
			return nil, -1, fmt.Errorf("smm: %s %s: the answer is not the JSON expected: %w", r.method, r.path, err)
		}
	}
	return res.Header, 0, nil
}

// call sends r and decodes its answer as a T.
func call[T any](ctx context.Context, c *Client, r request) (*T, error) {
	var out T
	r.out = &out
	if _, err := c.do(ctx, r); err != nil {
		return nil, err
	}
	return &out, nil
}

// retryableTransport: a connection that failed or broke is worth another try; a certificate
// the client does not trust, or the caller's own deadline, is not.
func retryableTransport(ctx context.Context, err error) time.Duration {
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	if ctx.Err() != nil || errors.As(err, &unknownAuthority) || errors.As(err, &hostname) || errors.As(err, &invalid) {
		return -1
	}
	if errors.Is(err, errRedirect) {
		return -1
	}
	return 0
}

// retryDelay says whether an error answer is retried: 429, 5xx and a POST whose first attempt
// is still running (409 idempotency_key_in_use), after their Retry-After when they give one.
func retryDelay(res *http.Response) time.Duration {
	retryable := res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500 ||
		(res.StatusCode == http.StatusConflict && res.Header.Get("Retry-After") != "")
	if !retryable {
		return -1
	}
	wait, ok := parseRetryAfter(res.Header.Get("Retry-After"), time.Now())
	switch {
	case !ok:
		return 0
	case wait > MaxRetryAfter:
		return -1
	case wait <= 0:
		return 0
	}
	return wait
}

// parseRetryAfter reads RFC 9110 Retry-After: delay-seconds or an HTTP date.
func parseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	if value == "" {
		return 0, false
	}
	if seconds, err := strconv.Atoi(strings.TrimSpace(value)); err == nil && seconds >= 0 {
		return time.Duration(seconds) * time.Second, true
	}
	if at, err := http.ParseTime(value); err == nil {
		return at.Sub(now), true
	}
	return 0, false
}

// backoff is exponential from 0.5 s, capped at 8 s, with jitter so that many clients that
// failed together do not retry together.
func backoff(attempt int) time.Duration {
	base := 500 * time.Millisecond * time.Duration(math.Pow(2, float64(attempt)))
	if base > 8*time.Second {
		base = 8 * time.Second
	}
	return base/2 + time.Duration(mrand.Int63n(int64(base/2)+1))
}

func newIdempotencyKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand does not fail on supported systems; a time-based key still tells calls apart.
		return "smm-go-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	return "smm-go-" + hex.EncodeToString(b)
}

// problemError makes the typed error of an error answer, problem+json or not.
func problemError(res *http.Response, data []byte) error {
	apiErr := &APIError{Status: res.StatusCode, RequestID: res.Header.Get("X-Request-Id")}
	if err := json.Unmarshal(data, &apiErr.Problem); err != nil || apiErr.Problem.Status == 0 {
		// Not the API's problem document (a proxy's page, say): keep what it said.
		text := strings.TrimSpace(string(data))
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		apiErr.Problem = Problem{Status: res.StatusCode, Title: http.StatusText(res.StatusCode), Detail: text}
	}
	apiErr.Code = apiErr.Problem.Code
	if apiErr.RequestID == "" {
		apiErr.RequestID = apiErr.Problem.Instance
	}
	if res.StatusCode == http.StatusTooManyRequests {
		wait, _ := parseRetryAfter(res.Header.Get("Retry-After"), time.Now())
		return &RateLimitError{APIError: apiErr, RetryAfter: wait}
	}
	return apiErr
}

// upload is a body read from a file or bytes as it is sent, never whole in memory.
type upload struct {
	open        func() (io.ReadCloser, error)
	length      int64
	contentType string
	progress    func(sent, total int64)
}

// progressReader tells progress, if set, how many bytes have been read from r so far.
type progressReader struct {
	r        io.Reader
	sent     int64
	total    int64
	progress func(sent, total int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.sent += int64(n)
		if p.progress != nil {
			p.progress(p.sent, p.total)
		}
	}
	return n, err
}
