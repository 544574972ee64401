package smm_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"smm.local/smm"
)

func TestAnHTTPBaseURLIsRefusedBeforeAnyRequest(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	connected := make(chan struct{}, 1)
	go func() {
		if conn, err := listener.Accept(); err == nil {
			connected <- struct{}{}
			conn.Close()
		}
	}()
	c, err := smm.NewClient("http://"+listener.Addr().String()+"/v1", "smm_key")
	if c != nil || err == nil || !strings.Contains(err.Error(), "use https://") {
		t.Fatalf("want an error saying to use https, got %v", err)
	}
	select {
	case <-connected:
		t.Fatal("the client connected to an http:// URL")
	default:
	}
}

func TestNewClientSaysWhatIsMissingOrWrong(t *testing.T) {
	t.Setenv("SMM_URL", "")
	t.Setenv("SMM_API_KEY", "")
	t.Setenv("SMM_CA_FILE", "")
	for _, tc := range []struct {
		name, url, key string
		opts           []smm.Option
		want           string
	}{
		{"no URL", "", "k", nil, "set SMM_URL"},
		{"no key", "https://127.0.0.1/v1", "", nil, "set SMM_API_KEY"},
		{"credentials in the URL", "https://u:p@127.0.0.1/v1", "k", nil, "without credentials"},
		{"no CA file", "https://127.0.0.1/v1", "k", []smm.Option{smm.WithCAFile(filepath.Join(t.TempDir(), "none.pem"))}, "CA file"},
		{"a CA file with no certificate", "https://127.0.0.1/v1", "k", []smm.Option{smm.WithCAFile(writeFile(t, "not a certificate"))}, "holds no PEM certificate"},
		{"negative retries", "https://127.0.0.1/v1", "k", []smm.Option{smm.WithMaxRetries(-1)}, "WithMaxRetries(-1)"},
	} {
		if _, err := smm.NewClient(tc.url, tc.key, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want an error with %q, got %v", tc.name, tc.want, err)
		}
	}
}

func writeFile(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTheEnvironmentAndABareOriginAreEnough(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	// SMM_URL, SMM_API_KEY and SMM_CA_FILE are set by the harness.
	fromEnv, err := smm.NewClient("", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fromEnv.Me(ctx); err != nil {
		t.Fatalf("a client from the environment: %v", err)
	}
	// https://host:port with no path means https://host:port/v1.
	origin := strings.TrimSuffix(live.URL, "/v1")
	bare, err := smm.NewClient(origin, live.APIKey, smm.WithCAFile(live.CAFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bare.Me(ctx); err != nil {
		t.Fatalf("a base URL without /v1: %v", err)
	}
	health, err := bare.Health(ctx)
	if err != nil || health.Status != "ok" {
		t.Fatalf("Health: %+v, %v", health, err)
	}
}

func TestAnUntrustedCertificateIsAnErrorAndNotRetried(t *testing.T) {
	live := smm.LiveEnv(t)
	// Trust another server's certificate: the daemon's must be refused.
	other := httptest.NewTLSServer(http.NotFoundHandler())
	defer other.Close()
	c, err := smm.NewClient(live.URL, live.APIKey, smm.WithCAFile(writeCertificate(t, other.Certificate().Raw)),
		smm.WithSleep(func(context.Context, time.Duration) error {
			t.Error("a certificate error was retried")
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Me(context.Background())
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("want an x509.UnknownAuthorityError, got %v", err)
	}
	// The system's roots do not know the daemon's self-signed certificate either.
	t.Setenv("SMM_CA_FILE", "")
	system, err := smm.NewClient(live.URL, live.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := system.Me(context.Background()); !errors.As(err, &unknown) {
		t.Fatalf("without a CA file: want an x509.UnknownAuthorityError, got %v", err)
	}
}

func TestARedirectIsNotFollowed(t *testing.T) {
	elsewhere := 0
	target := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere++ }))
	defer target.Close()
	server := httptest.NewTLSServer(http.RedirectHandler(target.URL+"/v1/me", http.StatusFound))
	defer server.Close()
	c, err := smm.NewClient(server.URL, "smm_key", smm.WithCAFile(writeCertificate(t, server.Certificate().Raw)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Me(context.Background()); err == nil || !strings.Contains(err.Error(), "redirect") || elsewhere != 0 {
		t.Fatalf("a redirect must not be followed (the key would go along): %v, %d requests elsewhere", err, elsewhere)
	}
}

func TestAHostnameMismatchAndAnExpiredCertificateAreErrors(t *testing.T) {
	neverSleep := smm.WithSleep(func(context.Context, time.Duration) error {
		t.Error("a certificate error was retried")
		return nil
	})
	// httptest's certificate names example.com and 127.0.0.1, not localhost.
	server := httptest.NewTLSServer(http.NotFoundHandler())
	defer server.Close()
	c, err := smm.NewClient(strings.Replace(server.URL, "127.0.0.1", "localhost", 1), "smm_key", smm.WithCAFile(writeCertificate(t, server.Certificate().Raw)), neverSleep)
	if err != nil {
		t.Fatal(err)
	}
	var mismatch x509.HostnameError
	if _, err := c.Me(context.Background()); !errors.As(err, &mismatch) {
		t.Fatalf("a certificate for another host name: want an x509.HostnameError, got %v", err)
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	expired := httptest.NewUnstartedServer(http.NotFoundHandler())
	expired.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	expired.StartTLS()
	defer expired.Close()
	c, err = smm.NewClient(expired.URL, "smm_key", smm.WithCAFile(writeCertificate(t, der)), neverSleep)
	if err != nil {
		t.Fatal(err)
	}
	var invalid x509.CertificateInvalidError
	if _, err := c.Me(context.Background()); !errors.As(err, &invalid) || invalid.Reason != x509.Expired {
		t.Fatalf("an expired certificate: want an x509.CertificateInvalidError (Expired), got %v", err)
	}
}

func TestIDsAreEscapedInPaths(t *testing.T) {
	var got string
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.EscapedPath()
		w.Write([]byte(`{}`))
	}))
	defer server.Close()
	c, err := smm.NewClient(server.URL+"/smm/v1/", "smm_key", smm.WithCAFile(writeCertificate(t, server.Certificate().Raw)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Posts.Get(context.Background(), "pst_1/../x?y#z"); err != nil {
		t.Fatal(err)
	}
	if want := "/smm/v1/posts/pst_1%2F..%2Fx%3Fy%23z"; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
	if _, err := c.Health(context.Background()); err != nil || got != "/smm/healthz" {
		t.Fatalf("behind a path prefix, /healthz is under it: sent %s, %v", got, err)
	}
}
