// Package smm is the Go SDK of smm, the self-hosted social media management API.
//
// It uses only the standard library. A client sends every request over HTTPS with the API key,
// retries 429s (after their Retry-After), 5xx answers and connection failures a bounded number
// of times, and sends an Idempotency-Key with every POST so a retried create never makes two.
package smm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Version is this SDK's version, sent in the User-Agent.
const Version = "0.1.0"

// DefaultMaxRetries is how many times a request is retried when no WithMaxRetries is given.
const DefaultMaxRetries = 2

// MaxRetryAfter is the longest Retry-After the client waits out by itself; a longer one is
// returned at once as a *RateLimitError (or *APIError) for the caller to schedule.
const MaxRetryAfter = time.Minute

// SleepFunc waits for d, or returns ctx's error if ctx ends first.
type SleepFunc func(ctx context.Context, d time.Duration) error

// Option configures a Client.
type Option func(*settings) error

type settings struct {
	caFile     string
	maxRetries int
	timeout    time.Duration
	sleep      SleepFunc
}

// WithCAFile trusts the PEM certificates in path (a self-signed daemon's cert.pem) instead of
// the system's roots. Without it, SMM_CA_FILE is used when set.
func WithCAFile(path string) Option {
	return func(s *settings) error {
		s.caFile = path
		return nil
	}
}

// WithMaxRetries sets how many times a failed request is retried (0: never; default 2).
func WithMaxRetries(n int) Option {
	return func(s *settings) error {
		if n < 0 {
			return fmt.Errorf("smm: WithMaxRetries(%d): must be 0 or more", n)
		}
		s.maxRetries = n
		return nil
	}
}

// WithTimeout bounds each attempt of a request, its body included (default 30 s).
func WithTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d <= 0 {
			return fmt.Errorf("smm: WithTimeout(%s): must be positive", d)
		}
		s.timeout = d
		return nil
	}
}

// WithSleep replaces how the client waits between attempts (tests pass one that moves a clock).
func WithSleep(sleep SleepFunc) Option {
	return func(s *settings) error {
		if sleep == nil {
			return errors.New("smm: WithSleep(nil): give a function")
		}
		s.sleep = sleep
		return nil
	}
}

// Client talks to one smm daemon with one API key. It is safe for concurrent use.
type Client struct {
	// root is the base URL without its /v1, escaped: the contract's paths (/v1/posts, /healthz),
	// escaped by pathOf, are appended to it.
	root       string
	apiKey     string
	http       *http.Client
	maxRetries int
	sleep      SleepFunc

	Posts      *PostsService
	Platforms  *PlatformsService
	Accounts   *AccountsService
	Webhooks   *WebhooksService
	APIKeys    *APIKeysService
	AI         *AIService
	Analytics  *AnalyticsService
	Feeds      *FeedsService
	Workspaces *WorkspacesService
	Media      *MediaService
}

// NewClient makes a client for the API at baseURL (https://host:port/v1; a URL with no path
// gets /v1). An empty baseURL or apiKey is read from SMM_URL or SMM_API_KEY. A base URL that is
// not https is refused here, before any request could carry the key in clear.
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	s := settings{caFile: os.Getenv("SMM_CA_FILE"), maxRetries: DefaultMaxRetries, timeout: 30 * time.Second, sleep: sleepContext}
	for _, opt := range opts {
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	if baseURL == "" {
		baseURL = os.Getenv("SMM_URL")
	}
	if apiKey == "" {
		apiKey = os.Getenv("SMM_API_KEY")
	}
	root, err := parseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	if apiKey == "" {
		return nil, errors.New("smm: no API key: pass one to NewClient or set SMM_API_KEY")
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.caFile != "" {
		if tlsConfig.RootCAs, err = loadCAFile(s.caFile); err != nil {
			return nil, err
		}
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	c := &Client{
		root:       root,
		apiKey:     apiKey,
		http:       &http.Client{Transport: transport, Timeout: s.timeout, CheckRedirect: refuseRedirects},
		maxRetries: s.maxRetries,
		sleep:      s.sleep,
	}
	c.Posts = &PostsService{c}
	c.Platforms = &PlatformsService{c}
	c.Accounts = &AccountsService{c}
	c.Webhooks = &WebhooksService{c}
	c.APIKeys = &APIKeysService{c}
	c.AI = &AIService{c}
	c.Analytics = &AnalyticsService{c}
	c.Feeds = &FeedsService{c}
	c.Workspaces = &WorkspacesService{c}
	c.Media = &MediaService{c}
	return c, nil
}

func parseBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("smm: no base URL: pass one to NewClient (https://host:8443/v1) or set SMM_URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("smm: base URL %q: %w", raw, err)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("smm: base URL %q: use https:// (the API key would travel in clear over %s://)", raw, u.Scheme)
	}
	if u.Host == "" {
		return "", fmt.Errorf("smm: base URL %q has no host", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("smm: base URL %q: give only https://host[:port][/path], without credentials, query or fragment", raw)
	}
	root := strings.TrimSuffix(strings.TrimSuffix(u.EscapedPath(), "/"), "/v1")
	return u.Scheme + "://" + u.Host + root, nil
}

func loadCAFile(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("smm: CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("smm: CA file %s holds no PEM certificate", path)
	}
	return pool, nil
}

// A redirect would re-send the key to wherever it points; the API never redirects.
func refuseRedirects(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("%w to %s", errRedirect, req.URL.Redacted())
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var errRedirect = errors.New("smm: refusing to follow a redirect")
