package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The User-Agent is Mandelbot's product token with version and contact
// (docs/robots-rules.md rule 6 matches on the token before "/"), or the
// operator's own; Accept-Encoding lists exactly the codings we decode.
func TestGetSendsUserAgentAndAcceptEncoding(t *testing.T) {
	type seen struct{ ua, ae string }
	got := make(chan seen, 1)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Header.Get("User-Agent"), r.Header.Get("Accept-Encoding")}
	})
	for _, tc := range []struct {
		name, opt, want string
		callerUA        string
	}{
		{name: "default", want: "Mandelbot/" + Version + " (+" + ContactURL + ")"},
		{name: "configured", opt: "Mandelbot/9.9 (+https://ops.example/bot)", want: "Mandelbot/9.9 (+https://ops.example/bot)"},
		{name: "caller header replaced", callerUA: "curl/8", want: DefaultUserAgent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, loopback(Options{UserAgent: tc.opt}))
			h := http.Header{}
			if tc.callerUA != "" {
				h.Set("User-Agent", tc.callerUA)
				h.Set("Accept-Encoding", "compress")
			}
			get(t, c, Request{URL: srv.URL, Header: h})
			s := <-got
			if s.ua != tc.want {
				t.Errorf("User-Agent = %q, want %q", s.ua, tc.want)
			}
			if s.ae != "gzip, br, zstd" {
				t.Errorf("Accept-Encoding = %q, want %q", s.ae, "gzip, br, zstd")
			}
		})
	}
}

func TestFormatUserAgent(t *testing.T) {
	if got, want := FormatUserAgent(Product, Version, ContactURL), DefaultUserAgent; got != want {
		t.Errorf("FormatUserAgent = %q, want %q", got, want)
	}
}

// The caller's validators go out as given, and a 304 is a result, not an
// error (docs/robots-rules.md rule 22 revalidates robots.txt this way).
func TestGetConditionalRequest(t *testing.T) {
	const etag = `"v1"`
	const lastMod = "Wed, 21 Oct 2015 07:28:00 GMT"
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag && r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	})
	c := newClient(t, loopback(Options{}))

	first := get(t, c, Request{URL: srv.URL + "/robots.txt"})
	if first.Status != http.StatusOK || first.Header.Get("ETag") != etag {
		t.Fatalf("first fetch: status %d, ETag %q", first.Status, first.Header.Get("ETag"))
	}
	h := http.Header{}
	h.Set("If-None-Match", etag)
	h.Set("If-Modified-Since", lastMod)
	again := get(t, c, Request{URL: srv.URL + "/robots.txt", Header: h})
	if again.Status != http.StatusNotModified || len(again.Body) != 0 {
		t.Errorf("revalidation: status %d, body %q; want 304 and no body", again.Status, again.Body)
	}
	if got := h.Get("User-Agent"); got != "" {
		t.Errorf("Get modified the caller's header: User-Agent %q", got)
	}
}

// Redirects are not followed: each hop must pass the robots check (docs/design.md
// "The pipeline"; docs/robots-rules.md rule 21 counts robots.txt hops). The
// 3xx comes back with Location resolved against the request URL.
func TestGetDoesNotFollowRedirects(t *testing.T) {
	var targetHits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/old/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", r.URL.Query().Get("to"))
		w.WriteHeader(http.StatusMovedPermanently)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { targetHits.Add(1) })
	srv := serve(t, mux.ServeHTTP)
	c := newClient(t, loopback(Options{}))

	for _, tc := range []struct{ location, want string }{
		{"../new/page?x=1", srv.URL + "/new/page?x=1"},
		{"/abs", srv.URL + "/abs"},
		{"other", srv.URL + "/old/other"},
		{"//site-b.test/p", "http://site-b.test/p"},
		{"https://site-c.test/a b", "https://site-c.test/a%20b"},
		{`\back\slash`, srv.URL + "/back/slash"}, // WHATWG: "\" is "/" in http URLs
		{"", ""},
	} {
		t.Run(tc.location, func(t *testing.T) {
			u := srv.URL + "/old/page?to=" + strings.ReplaceAll(strings.ReplaceAll(tc.location, " ", "%20"), "?", "%3F")
			resp := get(t, c, Request{URL: u + "#frag"})
			if resp.Status != http.StatusMovedPermanently {
				t.Fatalf("status %d, want 301", resp.Status)
			}
			if resp.Location != tc.want {
				t.Errorf("Location = %q, want %q", resp.Location, tc.want)
			}
			if resp.URL != u {
				t.Errorf("URL = %q, want %q (fragment dropped)", resp.URL, u)
			}
		})
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("redirect targets were requested %d times, want 0", n)
	}
}

// HTTP/2 survives the custom Transport (docs/design.md "Known traps").
// The server's certificate names example.com, reached through Resolve, so
// this also checks that TLS verifies the URL's host, not the pinned address.
func TestGetHTTP2(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s", r.Proto, r.Host)
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())

	c := newClient(t, Options{
		RootCAs: pool,
		Resolve: map[string]string{fmt.Sprintf("example.com:%d", port): "127.0.0.1"},
	})
	resp := get(t, c, Request{URL: fmt.Sprintf("https://example.com:%d/", port)})
	if resp.Proto != "HTTP/2.0" {
		t.Errorf("Proto = %q, want HTTP/2.0", resp.Proto)
	}
	if want := fmt.Sprintf("HTTP/2.0 example.com:%d", port); string(resp.Body) != want {
		t.Errorf("server saw %q, want %q", resp.Body, want)
	}
	if want := srv.Listener.Addr().String(); resp.RemoteAddr != want {
		t.Errorf("RemoteAddr = %q, want %q", resp.RemoteAddr, want)
	}
}

// Response fields other than the body: media type without parameters,
// header, protocol, timing from the injected clock.
func TestGetResponseFields(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "Text/HTML ; charset=UTF-8")
		w.Header().Set("X-Robots-Tag", "noindex")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, "down")
	})
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var calls atomic.Int64
	now := func() time.Time { return t0.Add(time.Duration(calls.Add(1)-1) * time.Second) }
	c := newClient(t, loopback(Options{Now: now}))
	resp := get(t, c, Request{URL: srv.URL + "/x"})

	type view struct {
		Status             int
		Proto, ContentType string
		Body, XRobots      string
		Started            time.Time
		Duration           time.Duration
		Truncated          bool
		RawBytes           int64
	}
	got := view{resp.Status, resp.Proto, resp.ContentType, string(resp.Body), resp.Header.Get("X-Robots-Tag"),
		resp.Started, resp.Duration, resp.Truncated, resp.RawBytes}
	want := view{503, "HTTP/1.1", "text/html", "down", "noindex", t0, time.Second, false, 4}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
}

// OnExchange sees the request as sent and the body as received, still
// encoded, for the WARC writer.
func TestOnExchange(t *testing.T) {
	plain := []byte(strings.Repeat("warc me ", 100))
	gz := encode(t, codingGzip, plain)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(http.StatusTeapot)
		w.Write(gz)
	})
	var got []Exchange
	var mu sync.Mutex
	c := newClient(t, loopback(Options{OnExchange: func(e Exchange) {
		mu.Lock()
		defer mu.Unlock()
		e.RawBody = append([]byte(nil), e.RawBody...) // the callee copies what it keeps
		got = append(got, e)
	}}))
	h := http.Header{"If-None-Match": {`"x"`}}
	resp := get(t, c, Request{URL: srv.URL + "/p?q=1", Header: h})

	if len(got) != 1 {
		t.Fatalf("OnExchange called %d times, want 1", len(got))
	}
	e := got[0]
	host := strings.TrimPrefix(srv.URL, "http://")
	if e.Method != "GET" || e.URL != srv.URL+"/p?q=1" || e.Host != host {
		t.Errorf("request line: %s %s Host %s", e.Method, e.URL, e.Host)
	}
	if e.RequestHeader.Get("User-Agent") != DefaultUserAgent || e.RequestHeader.Get("If-None-Match") != `"x"` ||
		e.RequestHeader.Get("Accept-Encoding") != AcceptEncoding {
		t.Errorf("request header: %v", e.RequestHeader)
	}
	if e.Proto != "HTTP/1.1" || e.StatusCode != 418 || e.Status != "418 I'm a teapot" {
		t.Errorf("status line: %s %d %q", e.Proto, e.StatusCode, e.Status)
	}
	if e.ResponseHeader.Get("Content-Encoding") != "gzip" {
		t.Errorf("response header: %v", e.ResponseHeader)
	}
	if string(e.RawBody) != string(gz) {
		t.Errorf("RawBody is %d bytes, want the %d gzip bytes sent", len(e.RawBody), len(gz))
	}
	if string(resp.Body) != string(plain) {
		t.Errorf("Body is not the decoded text")
	}
	if e.RemoteAddr != host || e.Err != nil || e.TruncatedBy != LimitNone {
		t.Errorf("RemoteAddr %q, Err %v, TruncatedBy %v", e.RemoteAddr, e.Err, e.TruncatedBy)
	}
}

// Connections are kept alive between requests to a host, and Close drops
// the idle ones.
func TestKeepAliveAndClose(t *testing.T) {
	srv, conns := connCountingServer(t)
	c := newClient(t, loopback(Options{}))

	get(t, c, Request{URL: srv.URL + "/a"})
	get(t, c, Request{URL: srv.URL + "/b"})
	if n := conns.Load(); n != 1 {
		t.Errorf("two requests opened %d connections, want 1 (kept alive)", n)
	}
	c.Close()
	get(t, c, Request{URL: srv.URL + "/c"})
	if n := conns.Load(); n != 2 {
		t.Errorf("after Close: %d connections, want 2 (a fresh one)", n)
	}
}

// The Client is safe for concurrent use (run with -race).
func TestGetConcurrent(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(encode(t, codingGzip, []byte(r.URL.Path)))
	})
	var exchanges atomic.Int32
	c := newClient(t, loopback(Options{OnExchange: func(Exchange) { exchanges.Add(1) }}))
	const n = 16
	errs := make(chan error, n)
	for i := range n {
		go func() {
			path := fmt.Sprintf("/p%d", i)
			resp, err := c.Get(context.Background(), Request{URL: srv.URL + path})
			if err == nil && string(resp.Body) != path {
				err = fmt.Errorf("body %q, want %q", resp.Body, path)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := exchanges.Load(); got != n {
		t.Errorf("OnExchange called %d times, want %d", got, n)
	}
}

func TestGetInvalidURL(t *testing.T) {
	c := newClient(t, Options{})
	for _, u := range []string{"", "/relative", "ftp://site-a.test/", "http://", "http://[::1", "mailto:a@site-a.test"} {
		resp, err := c.Get(context.Background(), Request{URL: u})
		if resp != nil || !errors.Is(err, ErrInvalidURL) {
			t.Errorf("Get(%q) = %v, %v; want nil, ErrInvalidURL", u, resp, err)
		}
		if k := Classify(err); k != KindOther {
			t.Errorf("Classify(Get(%q)) = %v, want other", u, k)
		}
	}
}

// docs/robots-rules.md rule 12: the request target is exactly the path and query that robots.txt
// was matched against; net/url would re-encode "|", "^", "[" and "]".
func TestGetSendsTheCanonicalTargetAsIs(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r.RequestURI }))
	t.Cleanup(srv.Close)
	c, err := New(Options{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/a|b^c[d]?q=[x]"}); err != nil {
		t.Fatal(err)
	}
	if uri := <-got; uri != "/a|b^c[d]?q=[x]" {
		t.Fatalf("server saw %q", uri)
	}
}

// HostClass answers as the dialer does (issue 10: the CLI's seed check was a weaker copy): the
// ranges netip does not name, such as carrier NAT, are refused too.
func TestHostClassMatchesDialer(t *testing.T) {
	for host, want := range map[string]string{
		"127.0.0.1": "loopback", "localhost": "loopback", "a.localhost": "loopback", "[::1]": "loopback",
		"10.1.2.3": "private", "100.64.0.1": "shared", "0.1.2.3": "this-network", "198.18.0.1": "benchmarking",
		"[::ffff:127.0.0.1]": "loopback", "93.184.216.34": "", "example.com": "",
	} {
		if got := HostClass(host); got != want {
			t.Errorf("HostClass(%q) = %q, want %q", host, got, want)
		}
	}
}

// Issue 10: an error names the URL as a URL ("GET http://...: ..."), not net/http's quoted
// `Get "..."`, which log formats escape again; its kind is still classified.
func TestRequestErrorNamesTheURLPlainly(t *testing.T) {
	c, err := New(Options{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	_, err = c.Get(context.Background(), Request{URL: "http://" + addr + "/robots.txt"})
	if err == nil {
		t.Fatal("no error from a closed port")
	}
	if msg := err.Error(); !strings.Contains(msg, "GET http://"+addr+"/robots.txt: ") || strings.Contains(msg, `"`) {
		t.Errorf("error %q: want the plain URL after GET, no quotes", msg)
	}
	if k := Classify(err); k != KindRefused {
		t.Errorf("Classify = %v, want refused", k)
	}
}

// Issue 8: a crawl goes round its origins, each origin's next request leaving once the last one
// is answered, so the idle pool must hold a connection to each origin in the rotation: net/http
// drops the least recently used connection first, and a pool smaller than the rotation lost every
// connection before its reuse (1,000 origins and a pool of 512: 21,715 connections for 22,000
// requests). Two rounds over 1,000 origins open 1,000 connections, not 2,000.
func TestKeepsAConnectionToEachOriginOfARotation(t *testing.T) {
	const origins = 1000
	srv, conns := connCountingServer(t)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	resolve := map[string]string{}
	for i := range origins {
		resolve[fmt.Sprintf("o%d.test:%s", i, port)] = "127.0.0.1"
	}
	c := newClient(t, Options{Resolve: resolve})
	for round := range 2 {
		for i := range origins {
			get(t, c, Request{URL: fmt.Sprintf("http://o%d.test:%s/%d", i, port, round)})
		}
	}
	if n := conns.Load(); n != origins {
		t.Errorf("two rounds over %d origins opened %d connections, want %d (one each, kept alive)", origins, n, origins)
	}
}

// connCountingServer starts an HTTP/1.1 test server on 127.0.0.1 that answers 200 with nothing, and
// counts the connections it accepts; it is closed when the test ends.
func connCountingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	conns := new(atomic.Int32)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, conns
}
