package crawler

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// env is one fake web, a virtual clock and a store, for crawls that run as the spec says without
// waiting in real time for pauses and cache lifetimes.
type env struct {
	t     *testing.T
	web   *testweb.Web
	clock *clock.Virtual
	store *sqlite.Store
	path  string
}

func newEnv(t *testing.T, sites []testweb.Site) *env {
	t.Helper()
	e := &env{t: t, clock: clock.NewVirtual(t0), path: filepath.Join(t.TempDir(), "crawl.db")}
	web, err := testweb.Start(sites, testweb.Options{Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	e.web = web
	e.open()
	return e
}

func (e *env) open() {
	s, err := sqlite.Open(context.Background(), e.path, sqlite.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { s.Close() })
	e.store = s
}

func (e *env) client() *fetch.Client {
	e.t.Helper()
	return e.clientWith(false)
}

// clientWith is the test web's client; capture turns on fetch.Options.Capture, as a crawl that
// archives needs.
func (e *env) clientWith(capture bool) *fetch.Client {
	e.t.Helper()
	return e.clientTimed(capture, 300*time.Millisecond)
}

// clientTimed is clientWith with headerTimeout for ResponseHeaderTimeout. The harness's 300 ms
// makes the tests of hanging servers quick, but a loaded machine under the race detector can
// take longer to answer a plain page; a test that counts requests exactly must not see that
// timeout's retry (issue 29: a request with no answer is asked again).
func (e *env) clientTimed(capture bool, headerTimeout time.Duration) *fetch.Client {
	e.t.Helper()
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			e.t.Fatal(err)
		}
		resolve[hp] = addr
	}
	c, err := fetch.New(fetch.Options{
		Resolve: resolve, RootCAs: e.web.RootCAs(), Now: e.clock.Now, Capture: capture,
		TotalTimeout: max(2*time.Second, 2*headerTimeout), ResponseHeaderTimeout: headerTimeout,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(c.Close)
	return c
}

// crawl runs one crawl of seeds (references like "{a}/") to the end.
func (e *env) crawl(seeds []string, tune func(*Options)) Stats {
	e.t.Helper()
	opts := Options{Fetcher: e.client(), Store: e.store, Clock: e.clock, MaxDepth: -1, Concurrency: 4}
	for _, s := range seeds {
		opts.Seeds = append(opts.Seeds, e.web.Expand(s))
	}
	if tune != nil {
		tune(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := Run(ctx, opts)
	if err != nil {
		e.t.Fatalf("crawl: %v (stats %+v)", err, st)
	}
	return st
}

// requested reports whether the web logged a request for a reference like "{a}/path".
func (e *env) requested(ref string) bool {
	key, path := splitRef(ref)
	return e.web.Count(key, path) > 0
}

func splitRef(ref string) (key, path string) {
	rest := strings.TrimPrefix(ref, "{")
	key, path, _ = strings.Cut(rest, "}")
	if path == "" {
		path = "/"
	}
	return key, path
}

// checkGate asserts docs/design.md's invariant from the request log: on every origin, no page is
// requested before that origin's robots.txt (rule 20), and nothing is requested while the
// origin is paused by a 503 or 429 (rule 23: at least the one-minute minimum pause).
func (e *env) checkGate() {
	e.t.Helper()
	for _, key := range e.web.Keys() {
		robotsSeen := false
		var pausedAt time.Time
		for _, r := range e.web.RequestsTo(key) {
			if !pausedAt.IsZero() && r.At.Sub(pausedAt) < time.Minute {
				e.t.Errorf("%s: %s requested %v after a %s answer: the origin was paused", key, r.Path, r.At.Sub(pausedAt), "503/429")
			}
			pausedAt = time.Time{}
			if r.Status == 503 || r.Status == 429 {
				pausedAt = r.At
			}
			if r.Path == testweb.RobotsPath {
				robotsSeen = true
				continue
			}
			if strings.Contains(r.Path, "robots") {
				continue // a hop of another origin's robots.txt redirect chain (rule 21)
			}
			if !robotsSeen {
				e.t.Errorf("%s: %s requested before %s/robots.txt", key, r.Path, key)
			}
		}
	}
}

func (e *env) urls() map[string]store.URL {
	out := map[string]store.URL{}
	e.store.EachURL(context.Background(), func(u store.URL) error { out[u.URL] = u; return nil })
	return out
}
