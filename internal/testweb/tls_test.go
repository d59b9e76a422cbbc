package testweb

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An https site is verified with RootCAs under its host name and speaks HTTP/2.
func TestTLSSiteVerifiesWithRootCAsAndSpeaksHTTP2(t *testing.T) {
	w := start(t, SameHostOrigins(), Options{})
	got := get(t, newClient(t, w, 0), w.URL("secure", RobotsPath))
	if got.status != 200 || got.proto != 2 {
		t.Fatalf("GET https robots.txt: status %d over HTTP/%d, want 200 over HTTP/2", got.status, got.proto)
	}
	if want := "Disallow: /only-secure"; !strings.Contains(got.body, want) {
		t.Errorf("https robots.txt %q lacks %q", got.body, want)
	}
	if r := w.RequestsTo("secure"); len(r) != 1 || r[0].Proto != "HTTP/2.0" {
		t.Errorf("log = %v, want one HTTP/2.0 request", r)
	}

	// Without the web's roots the certificate is unknown.
	bare := &http.Client{Transport: &http.Transport{DialContext: w.DialContext}}
	defer bare.CloseIdleConnections()
	_, err := bare.Get(w.URL("secure", "/"))
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("GET without RootCAs: err = %v, want x509.UnknownAuthorityError", err)
	}

	// The certificate also parses from PEM, for clients that read roots from a file.
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(w.CertificatePEM()) {
		t.Fatalf("CertificatePEM does not parse")
	}
	fromPEM := &http.Client{Transport: &http.Transport{DialContext: w.DialContext, TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer fromPEM.CloseIdleConnections()
	resp, err := fromPEM.Get(w.URL("secure", "/"))
	if err != nil {
		t.Fatalf("GET with the PEM roots: %v", err)
	}
	resp.Body.Close()
}

// A web with no TLS site has no certificate.
func TestPlainWebHasNoCertificate(t *testing.T) {
	w := start(t, RobotsOK(), Options{})
	if w.CertificatePEM() != nil {
		t.Errorf("CertificatePEM of a plain web is not nil")
	}
}

// Under HTTP/2 there is no hijacking: Reset still kills the TCP connection with RST,
// and Hang is still released by the client's timeout (a stream reset).
func TestResetAndHangOverHTTP2(t *testing.T) {
	w := start(t, []Site{{Key: "s", TLS: true, Pages: []Page{
		{Path: "/reset", Script: []Step{{Do: Reset}}},
		{Path: "/hang", Script: []Step{{Do: Hang}}},
		{Path: "/ok"},
	}}}, Options{})
	c := newClient(t, w, 100*time.Millisecond)
	if got := get(t, c, w.URL("s", "/ok")); got.proto != 2 {
		t.Fatalf("GET /ok over HTTP/%d, want HTTP/2", got.proto)
	}
	if _, err := tryGet(c, w.URL("s", "/reset")); err == nil {
		t.Errorf("GET /reset over HTTP/2 succeeded, want an error")
	}
	_, err := tryGet(c, w.URL("s", "/hang"))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("GET /hang over HTTP/2: err = %v, want a timeout", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.WaitIdle(ctx); err != nil {
		t.Fatalf("handlers still running after the HTTP/2 client gave up: %v", err)
	}
	for _, r := range w.RequestsTo("s") {
		if r.Proto != "HTTP/2.0" {
			t.Errorf("%v went over %s, want HTTP/2.0", r, r.Proto)
		}
	}
}
