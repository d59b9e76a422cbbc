package testweb

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a web. The zero value is ready to use.
type Options struct {
	// Now is the clock of the request log, the Date header and Step.RetryDateIn
	// (Retry-After as an HTTP-date). Nil means time.Now. Tests inject a fake clock.
	Now func() time.Time

	// MaxLog bounds the request log: once it holds MaxLog entries, later requests are
	// counted (see [Web.Dropped]) but not kept, so the first requests, which tests
	// reason about most, are never lost. 0 means [DefaultMaxLog]; a negative value keeps
	// no entries. Each entry holds the request header, typically a few hundred bytes.
	MaxLog int

	// OnRequest, when non-nil, is called with each request's log entry (Seq set) after
	// it is logged and before it is answered, on the handler's goroutine, even when the
	// log is full. It must be safe for concurrent use and return quickly: the client
	// waits. Tests use it to learn, without sleeping, that a request has arrived; the
	// demo uses it to show the crawl live.
	OnRequest func(Request)

	// ErrorLog receives net/http's server errors (TLS handshake failures of clients that
	// give up, for example). Nil discards them.
	ErrorLog *log.Logger
}

// DefaultMaxLog is the request log bound when Options.MaxLog is 0.
const DefaultMaxLog = 1_000_000

// Web is a started fake web. Its methods are safe for concurrent use; Close it when done.
type Web struct {
	now       func() time.Time
	onRequest func(Request)
	refs      *refs
	sites     []*site // in the order given to Start
	byKey     map[string]*site
	cert      *selfSigned // nil when no site uses TLS

	mu sync.Mutex // guards pageState maps and counters of every site

	log  requestLog
	busy busy

	done      chan struct{} // closed by Close: releases Hang and Stall
	closeOnce sync.Once
	serving   sync.WaitGroup // one per Serve goroutine
}

// site is the running state of one Site.
type site struct {
	key      string
	host     string
	tls      bool
	port     int
	origin   string // "http://a.test:41234"
	fallback func(string) (Page, bool)
	raw      http.Handler

	pages  map[string]*pageState // guarded by Web.mu
	fbHits map[string]int        // script positions of Fallback pages; guarded by Web.mu

	ln  net.Listener // nil for a Refused site
	srv *http.Server
}

type pageState struct {
	page Page
	hits int // requests answered so far: the next Script index
}

// Start validates the sites, binds one 127.0.0.1 port per site and serves them until
// Close. Sites keep the order given. Start deep-copies the pages: changing sites
// afterwards has no effect (use [Web.Set]). On error nothing is left listening.
func Start(sites []Site, opts Options) (*Web, error) {
	if len(sites) == 0 {
		return nil, errors.New("testweb: start: no sites")
	}
	w := &Web{
		now:       opts.Now,
		onRequest: opts.OnRequest,
		byKey:     make(map[string]*site, len(sites)),
		done:      make(chan struct{}),
	}
	if w.now == nil {
		w.now = time.Now
	}
	w.log.max = opts.MaxLog
	if w.log.max == 0 {
		w.log.max = DefaultMaxLog
	}
	for i := range sites {
		s := &sites[i]
		if !validKey(s.Key) {
			return nil, fmt.Errorf("testweb: start: site %d: invalid key %q", i, s.Key)
		}
		if w.byKey[s.Key] != nil {
			return nil, fmt.Errorf("testweb: start: duplicate site key %q", s.Key)
		}
		host := s.Host
		if host == "" {
			host = s.Key + ".test"
		}
		if !validHost(host) {
			return nil, fmt.Errorf("testweb: start: site %q: invalid host %q", s.Key, host)
		}
		rs := &site{key: s.Key, host: host, tls: s.TLS, fallback: s.Fallback, raw: s.Raw}
		w.sites = append(w.sites, rs)
		w.byKey[s.Key] = rs
	}
	known := func(key string) bool { return w.byKey[key] != nil }
	for i := range sites {
		pages, err := pageMap(&sites[i], known)
		if err != nil {
			return nil, fmt.Errorf("testweb: start: site %q: %w", sites[i].Key, err)
		}
		w.sites[i].pages = pages
		w.sites[i].fbHits = make(map[string]int)
	}
	if err := w.listen(sites); err != nil {
		w.closeListeners()
		return nil, err
	}
	origins := make(map[string]string, len(w.sites))
	for _, s := range w.sites {
		origins[s.key] = s.origin
	}
	w.refs = newRefs(origins)

	var hosts []string
	for _, s := range w.sites {
		if s.tls {
			hosts = append(hosts, s.host)
		}
	}
	if len(hosts) > 0 {
		cert, err := newSelfSigned(hosts)
		if err != nil {
			w.closeListeners()
			return nil, fmt.Errorf("testweb: start: %w", err)
		}
		w.cert = cert
	}
	errorLog := opts.ErrorLog
	if errorLog == nil {
		errorLog = log.New(io.Discard, "", 0)
	}
	for _, s := range w.sites {
		if s.ln == nil {
			continue
		}
		s.srv = &http.Server{
			Handler:     w.handler(s),
			ErrorLog:    errorLog,
			ConnContext: withConn,
		}
		ln := s.ln
		if s.tls {
			s.srv.TLSConfig = &tls.Config{
				Certificates: []tls.Certificate{w.cert.pair},
				NextProtos:   []string{"h2", "http/1.1"},
			}
			ln = tls.NewListener(ln, s.srv.TLSConfig)
		}
		w.serving.Add(1)
		go func(srv *http.Server, ln net.Listener) {
			defer w.serving.Done()
			// Serve returns http.ErrServerClosed after Close; any other error
			// ends this site, and its clients then see refused connections.
			_ = srv.Serve(ln)
		}(s.srv, ln)
	}
	return w, nil
}

// pageMap indexes a site's pages by path, robots.txt included.
func pageMap(s *Site, known func(string) bool) (map[string]*pageState, error) {
	pages := make(map[string]*pageState, len(s.Pages)+1)
	add := func(p Page) error {
		if err := checkPage(&p, known); err != nil {
			return err
		}
		if pages[p.Path] != nil {
			return fmt.Errorf("page %q defined twice", p.Path)
		}
		pages[p.Path] = &pageState{page: p.clone()}
		return nil
	}
	if s.Robots != nil {
		p := *s.Robots
		p.Path = RobotsPath
		if err := add(p); err != nil {
			return nil, fmt.Errorf("robots: %w", err)
		}
	}
	for _, p := range s.Pages {
		if err := add(p); err != nil {
			return nil, err
		}
	}
	return pages, nil
}

// listen binds one loopback port per site; a Refused site's port is released at once.
func (w *Web) listen(sites []Site) error {
	for i, s := range w.sites {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("testweb: start: site %q: listen: %w", s.key, err)
		}
		s.port = ln.Addr().(*net.TCPAddr).Port
		if sites[i].Refused {
			if err := ln.Close(); err != nil {
				return fmt.Errorf("testweb: start: site %q: release port: %w", s.key, err)
			}
		} else {
			s.ln = ln
		}
		scheme := "http"
		if s.tls {
			scheme = "https"
		}
		s.origin = scheme + "://" + net.JoinHostPort(s.host, strconv.Itoa(s.port))
	}
	return nil
}

func (w *Web) closeListeners() {
	for _, s := range w.sites {
		if s.ln != nil {
			s.ln.Close()
		}
	}
}

// Close stops every site, releases hanging requests and waits until no handler runs.
// It is safe to call more than once.
func (w *Web) Close() {
	w.closeOnce.Do(func() {
		close(w.done)
		for _, s := range w.sites {
			if s.srv != nil {
				s.srv.Close()
			}
		}
		w.serving.Wait()
		w.busy.wait(context.Background())
	})
}

// site returns the running site for key; it panics on an unknown key, which is a bug
// in the scenario, as regexp.MustCompile panics on a bad pattern.
func (w *Web) site(key string) *site {
	s := w.byKey[key]
	if s == nil {
		panic(fmt.Sprintf("testweb: no site with key %q", key))
	}
	return s
}

// Origin returns the origin of the site with key, e.g. "https://a.test:41234".
// It panics if no site has that key.
func (w *Web) Origin(key string) string { return w.site(key).origin }

// URL returns the absolute URL of pathAndQuery ("/a?b=1"; "" means "/") on the site with
// key, e.g. "http://a.test:41234/a?b=1". It panics if no site has that key or the path
// does not start with "/".
func (w *Web) URL(key, pathAndQuery string) string {
	s := w.site(key)
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	if !strings.HasPrefix(pathAndQuery, "/") {
		panic(fmt.Sprintf("testweb: URL(%q, %q): path must start with \"/\"", key, pathAndQuery))
	}
	return s.origin + pathAndQuery
}

// Expand replaces every "{key}" reference in s with the origin of that site, as the web
// does in links and bodies: Expand("{b}/x") is "http://b.test:41234/x".
func (w *Web) Expand(s string) string { return w.refs.expand(s) }

// Addr returns the listening address of the site with key, "127.0.0.1:41234".
// It panics if no site has that key.
func (w *Web) Addr(key string) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(w.site(key).port))
}

// Seeds returns the home URLs ("/") of the named sites, or of every site in Start order
// when no key is given. The slice is the caller's.
func (w *Web) Seeds(keys ...string) []string {
	if len(keys) == 0 {
		keys = w.Keys()
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = w.URL(k, "/")
	}
	return out
}

// Keys returns the site keys in Start order. The slice is the caller's.
func (w *Web) Keys() []string {
	out := make([]string, len(w.sites))
	for i, s := range w.sites {
		out[i] = s.key
	}
	return out
}

// Resolve returns one "host:port:127.0.0.1" entry per site, in Start order, in the form
// of the crawler's (and curl's) --resolve flag. The slice is the caller's.
func (w *Web) Resolve() []string {
	out := make([]string, len(w.sites))
	for i, s := range w.sites {
		out[i] = s.host + ":" + strconv.Itoa(s.port) + ":127.0.0.1"
	}
	return out
}

// DialContext dials the site listening at addr ("a.test:41234"), as --resolve would
// make a client do; it is meant for http.Transport.DialContext. Any address that is not
// one of this web's sites is refused with an error, so a client using it can never
// leave loopback.
func (w *Web) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("testweb: dial %s: %w", addr, err)
	}
	for _, s := range w.sites {
		if strconv.Itoa(s.port) == port && equalFoldASCII(s.host, host) {
			var d net.Dialer
			return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
		}
	}
	return nil, fmt.Errorf("testweb: dial %s: no site of this web has that address", addr)
}

// RootCAs returns a pool that trusts the self-signed certificate of the TLS sites (an
// empty pool when there are none). The pool is the caller's.
func (w *Web) RootCAs() *x509.CertPool {
	pool := x509.NewCertPool()
	if w.cert != nil {
		pool.AddCert(w.cert.leaf)
	}
	return pool
}

// CertificatePEM returns the TLS sites' certificate in PEM form, for a client that reads
// its trusted roots from a file; nil when no site uses TLS. The slice is the caller's.
// A Go program on Linux started with SSL_CERT_FILE naming such a file trusts it as its
// system roots, which lets a test run the crawler binary against the https sites.
func (w *Web) CertificatePEM() []byte {
	if w.cert == nil {
		return nil
	}
	return append([]byte(nil), w.cert.pem...)
}

// Set adds a copy of page to the site with key, or replaces the page with the same
// path; a page with Path "/robots.txt" is the site's robots.txt. Its Script starts from
// the first step. It panics if no site has that key or the page is invalid (a scenario bug).
func (w *Web) Set(key string, page Page) {
	s := w.site(key)
	if err := checkPage(&page, func(k string) bool { return w.byKey[k] != nil }); err != nil {
		panic(fmt.Sprintf("testweb: set %q: %v", key, err))
	}
	w.mu.Lock()
	s.pages[page.Path] = &pageState{page: page.clone()}
	w.mu.Unlock()
}

// Delete removes the page at pathAndQuery from the site with key, which then answers
// 404 (or what its Fallback says). It panics if no site has that key.
func (w *Web) Delete(key, pathAndQuery string) {
	s := w.site(key)
	w.mu.Lock()
	delete(s.pages, pathAndQuery)
	w.mu.Unlock()
}

// equalFoldASCII compares two strings ignoring ASCII case only.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
