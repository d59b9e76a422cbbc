package frontier

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const testOrigin = "http://a.test"

// harness drives a Frontier the way the crawl loop does, with an explicit clock.
type harness struct {
	t   *testing.T
	f   *Frontier
	now time.Time
}

func newHarness(t *testing.T, opts Options, paths ...string) *harness {
	h := &harness{t: t, f: New(opts), now: t0}
	for _, p := range paths {
		h.discover(p)
	}
	return h
}

// discover reports a queued URL of testOrigin found, durable at once.
func (h *harness) discover(path string) (isNew bool) {
	u := store.URL{ID: store.IDOf(testOrigin + path), URL: testOrigin + path, Origin: testOrigin, State: store.StateQueued}
	isNew, overflow := h.f.Discover(u, h.now)
	if overflow {
		h.f.OverflowPersisted(testOrigin, h.now)
	}
	return isNew
}

// next returns the next step, performing load steps (a new origin) and persisting skips.
func (h *harness) next() Step {
	h.t.Helper()
	for {
		st := h.f.Next(h.now)
		switch st.Kind {
		case StepLoad:
			h.f.Loaded(st.Origin, store.OriginLoad{}, h.now)
			continue
		}
		return st
	}
}

func (h *harness) expect(kind StepKind) Step {
	h.t.Helper()
	st := h.next()
	if st.Kind != kind {
		h.t.Fatalf("at %s: step %+v, want kind %d", h.now.Sub(t0), st, kind)
	}
	return st
}

func (h *harness) robots(status int, body string, hdr http.Header) {
	h.t.Helper()
	st := h.expect(StepRobots)
	d := robots.Decision{Status: status, FetchedAt: h.now, MaxAge: -1, Body: []byte(body)}
	switch {
	case status >= 200 && status < 300:
		d.Kind = robots.KindRules
		d.Robots = robotstxt.Parse([]byte(body))
	case status == 304:
		d.Kind = robots.KindNotModified
	case status == 429 || status >= 500:
		d.Kind = robots.KindUnreachable
		if ra := hdr.Get("Retry-After"); ra != "" {
			d.RetryAfter, _ = time.ParseDuration(ra + "s")
		}
	default:
		d.Kind = robots.KindAllowAll
	}
	if d.Robots == nil {
		d.Robots = robotstxt.Parse(nil)
	}
	h.f.RobotsDone(st.Origin, d, h.now)
	h.f.Persisted(st.Origin, h.now)
}

func (h *harness) done(st Step, out Outcome) {
	h.f.Done(st.URL, out, h.now)
	h.f.Persisted(st.Origin, h.now)
}

// docs/robots-rules.md rule 20 and docs/design.md's invariant: no URL of an origin is requested before
// its robots.txt decision is known.
func TestRule20_RobotsFirst(t *testing.T) {
	h := newHarness(t, Options{}, "/a", "/b")
	h.robots(200, "User-agent: *\nDisallow: /b\n", nil)
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/a") {
		t.Fatalf("fetch %s", st.URL.URL)
	}
}

// seed 000 and rules 7, 16: a disallowed URL is handed back as a skip with its rule, never as a
// request.
func TestRule16_DisallowedURLsAreSkippedWithTheirRule(t *testing.T) {
	h := newHarness(t, Options{}, "/private/x", "/open")
	h.robots(200, "User-agent: mandelbot\nDisallow: /private\n", nil)
	st := h.expect(StepSkip)
	if st.Verdict.Rule.Line != 2 || !strings.Contains(st.Reason, "Disallow: /private") || !strings.Contains(st.Reason, "line 2") {
		t.Fatalf("skip %+v", st)
	}
	h.f.Persisted(st.Origin, h.now)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 21: 4xx means no robots.txt; everything is allowed.
func TestRule21_NotFoundAllowsAll(t *testing.T) {
	h := newHarness(t, Options{}, "/anything")
	h.robots(404, "", nil)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 21: 5xx makes the origin unreachable: nothing is requested, and
// robots.txt is retried later with backoff. Rule 23: a 503 on robots.txt pauses the origin.
func TestRule21_UnreachableRobotsBlocksTheOrigin(t *testing.T) {
	h := newHarness(t, Options{}, "/a")
	h.robots(500, "", nil)
	st := h.expect(StepWait)
	if !st.Until.Equal(t0.Add(robots.DefaultRetryFirst)) {
		t.Fatalf("wait until %v, want first retry after %v", st.Until.Sub(t0), robots.DefaultRetryFirst)
	}
	h.now = st.Until
	h.robots(500, "", nil) // second failure: backoff doubles
	if st := h.expect(StepWait); !st.Until.Equal(h.now.Add(2 * robots.DefaultRetryFirst)) {
		t.Fatalf("second retry at +%v", st.Until.Sub(h.now))
	}
	h.now = h.now.Add(2 * robots.DefaultRetryFirst)
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 21: with a good copy cached, an unreachable robots.txt does not stop
// the crawl: the good copy is used while retrying.
func TestRule21_GoodCopyUsedWhileRetrying(t *testing.T) {
	h := newHarness(t, Options{}, "/a", "/secret", "/b")
	h.robots(200, "User-agent: *\nDisallow: /secret\n", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.now = h.now.Add(robots.DefaultTTL + time.Second) // expired: revalidate first (rule 22)
	h.robots(502, "", nil)
	st := h.expect(StepSkip) // the old rules still apply
	if !strings.Contains(st.Reason, "Disallow: /secret") {
		t.Fatalf("skip reason %q", st.Reason)
	}
	h.f.Persisted(st.Origin, h.now)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 21: a robots.txt that answers 5xx for longer than the window is treated
// as 404, and the switch is recorded.
func TestRule21_FiveXXTreatedAs404AfterWindow(t *testing.T) {
	h := newHarness(t, Options{Robots: robots.Policy{As404After: 3 * time.Hour, RetryMax: time.Hour}}, "/a")
	for h.now.Sub(t0) < 3*time.Hour {
		h.robots(503, "", nil)
		st := h.expect(StepWait)
		h.now = st.Until
	}
	h.robots(503, "", nil) // the first failure was 3 h ago: switch
	rec, _ := h.f.Record(testOrigin)
	if !rec.Robots.AsNotFound || !strings.Contains(rec.Robots.Reason, "treated as 404") {
		t.Fatalf("record %+v", rec.Robots)
	}
	h.now = h.f.Next(h.now).Until // the 503 still pauses the origin (rule 23)
	h.expect(StepFetch)
}

// docs/robots-rules.md rule 22: a decision is reused for 48 hours, then revalidated with the
// validators the server gave.
func TestRule22_CachedFor48HoursThenRevalidated(t *testing.T) {
	h := newHarness(t, Options{}, "/1", "/2", "/3")
	st := h.expect(StepRobots)
	d := robots.Decision{Kind: robots.KindRules, Status: 200, FetchedAt: h.now, MaxAge: -1, ETag: `"v1"`,
		Body: []byte("User-agent: *\nDisallow: /3\n")}
	d.Robots = robotstxt.Parse(d.Body)
	h.f.RobotsDone(st.Origin, d, h.now)
	h.f.Persisted(st.Origin, h.now)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.now = t0.Add(47 * time.Hour)
	h.done(h.expect(StepFetch), Outcome{Status: 200}) // still cached: no robots step
	h.now = t0.Add(48*time.Hour + time.Second)
	st = h.expect(StepRobots)
	if st.Header.Get("If-None-Match") != `"v1"` {
		t.Fatalf("revalidation headers %v", st.Header)
	}
	h.f.RobotsDone(st.Origin, robots.Decision{Kind: robots.KindNotModified, Status: 304, FetchedAt: h.now, MaxAge: -1}, h.now)
	h.f.Persisted(st.Origin, h.now)
	if st := h.expect(StepSkip); !strings.HasSuffix(st.URL.URL, "/3") {
		t.Fatalf("after 304 the cached rules must still apply: %+v", st)
	}
}

// docs/robots-rules.md rule 22: a shorter Cache-Control max-age is honoured.
func TestRule22_ShorterMaxAgeHonoured(t *testing.T) {
	h := newHarness(t, Options{}, "/1", "/2")
	st := h.expect(StepRobots)
	d := robots.Decision{Kind: robots.KindRules, Status: 200, FetchedAt: h.now, MaxAge: time.Hour, Body: []byte("")}
	d.Robots = robotstxt.Parse(nil)
	h.f.RobotsDone(st.Origin, d, h.now)
	h.f.Persisted(st.Origin, h.now)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.now = t0.Add(time.Hour + time.Second)
	h.expect(StepRobots)
}

// docs/robots-rules.md rule 23: a 503 pauses the whole origin until Retry-After; then a single
// probe request goes first, and normal concurrency resumes only after it succeeds.
func TestRule23_PauseThenSingleProbe(t *testing.T) {
	h := newHarness(t, Options{PerOrigin: 3}, "/1", "/2", "/3", "/4", "/5")
	h.robots(200, "", nil)
	a, b := h.expect(StepFetch), h.expect(StepFetch)
	h.done(a, Outcome{Status: 503, RetryAfter: 120 * time.Second, RetryAfterOK: true})
	h.expect(StepWait)
	if h.f.Done(b.URL, Outcome{Status: 200}, h.now) { // an answer already in flight lifts neither the pause nor the probe
		t.Errorf("Done of a request sent before the pause reported the pause ended")
	}
	h.f.Persisted(b.Origin, h.now)
	if st := h.expect(StepWait); !st.Until.Equal(t0.Add(120 * time.Second)) {
		t.Fatalf("pause lifted early: %+v", st)
	}
	h.now = t0.Add(120 * time.Second)
	probe := h.expect(StepFetch)
	if !strings.HasSuffix(probe.URL.URL, "/1") {
		t.Fatalf("the paused URL must be the probe, got %s", probe.URL.URL)
	}
	h.expect(StepWait) // only one request while probing
	if !h.f.Done(probe.URL, Outcome{Status: 200}, h.now) {
		t.Errorf("Done of the answered probe did not report the pause ended (issue 10: the store must be told)")
	}
	h.f.Persisted(probe.Origin, h.now)
	if rec, _ := h.f.Record(probe.Origin); rec.Probing || rec.PauseReason != "" {
		t.Errorf("after the probe: record %+v; want no probing and no pause reason", rec)
	}
	h.expect(StepFetch)
	h.expect(StepFetch)
	h.expect(StepFetch) // back to 3 in flight
}

// docs/robots-rules.md rule 23: without Retry-After, exponential backoff from 1 minute; 429 pauses
// the same way.
func TestRule23_BackoffWithoutRetryAfterAnd429(t *testing.T) {
	h := newHarness(t, Options{}, "/1")
	h.robots(200, "", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 429})
	st := h.expect(StepWait)
	if st.Until.Sub(h.now) != time.Minute {
		t.Fatalf("first pause %v", st.Until.Sub(h.now))
	}
	h.now = st.Until
	h.done(h.expect(StepFetch), Outcome{Status: 503})
	if st := h.expect(StepWait); st.Until.Sub(h.now) != 2*time.Minute {
		t.Fatalf("second pause %v", st.Until.Sub(h.now))
	}
}

// docs/robots-rules.md rule 23: a 503 on robots.txt pauses the origin too.
func TestRule23_RobotsTxt503PausesOrigin(t *testing.T) {
	h := newHarness(t, Options{}, "/1")
	h.robots(503, "", http.Header{"Retry-After": {"600"}})
	st := h.expect(StepWait)
	if st.Until.Sub(t0) != 10*time.Minute {
		t.Fatalf("paused %v, want 10m", st.Until.Sub(t0))
	}
	rec, _ := h.f.Record(testOrigin)
	if !rec.PausedUntil.Equal(t0.Add(10*time.Minute)) || !strings.Contains(rec.PauseReason, "503") {
		t.Fatalf("pause not recorded: %+v", rec)
	}
}

// issue 3: a per-origin politeness delay between requests, measured from the end of the previous
// answer when that is later.
func TestPolitenessDelay(t *testing.T) {
	h := newHarness(t, Options{Delay: 10 * time.Second}, "/1", "/2", "/3")
	h.robots(200, "", nil) // robots.txt counts as a request
	if st := h.expect(StepWait); st.Until.Sub(t0) != 10*time.Second {
		t.Fatalf("after robots.txt wait %v", st.Until.Sub(t0))
	}
	h.now = t0.Add(10 * time.Second)
	st := h.expect(StepFetch)
	h.now = t0.Add(13 * time.Second) // a slow answer
	h.done(st, Outcome{Status: 200})
	if st := h.expect(StepWait); st.Until.Sub(t0) != 23*time.Second {
		t.Fatalf("next request at +%v, want +23s", st.Until.Sub(t0))
	}
}

// issue 3: --site-delay overrides --delay for one host; Crawl-delay is obeyed only on opt-in
// (rule 9), capped.
func TestSiteDelayAndCrawlDelayOptIn(t *testing.T) {
	body := "User-agent: *\nAllow: /\nCrawl-delay: 5\n"
	h := newHarness(t, Options{SiteDelay: map[string]time.Duration{"a.test": 2 * time.Second}}, "/1", "/2")
	h.robots(200, body, nil)
	if st := h.expect(StepWait); st.Until.Sub(h.now) != 2*time.Second {
		t.Fatalf("site delay: wait %v", st.Until.Sub(h.now))
	}
	h = newHarness(t, Options{HonorCrawlDelay: true}, "/1", "/2")
	h.robots(200, body, nil)
	if st := h.expect(StepWait); st.Until.Sub(h.now) != 5*time.Second {
		t.Fatalf("crawl-delay honoured: wait %v", st.Until.Sub(h.now))
	}
	h = newHarness(t, Options{HonorCrawlDelay: true}, "/1")
	h.robots(200, "User-agent: *\nDisallow: /x\nCrawl-delay: 86400\n", nil)
	if st := h.expect(StepWait); st.Until.Sub(h.now) != MaxHonoredCrawlDelay {
		t.Fatalf("crawl-delay cap: wait %v", st.Until.Sub(h.now))
	}
}

// issue 3: per-origin concurrency, 1 by default.
func TestPerOriginConcurrency(t *testing.T) {
	h := newHarness(t, Options{}, "/1", "/2")
	h.robots(200, "", nil)
	st := h.expect(StepFetch)
	h.expect(StepWait)
	h.done(st, Outcome{Status: 200})
	h.expect(StepFetch)
}

// The in-memory queue is bounded by Window; the rest is read back from the store.
func TestWindowAndRefill(t *testing.T) {
	h := newHarness(t, Options{Window: 2, PerOrigin: 5}, "/1", "/2", "/3")
	h.robots(200, "", nil)
	a, b := h.expect(StepFetch), h.expect(StepFetch)
	if st := h.expect(StepWait); st.Until != (time.Time{}) {
		t.Fatalf("refill must wait for in-flight answers: %+v", st)
	}
	h.done(a, Outcome{Status: 200})
	h.done(b, Outcome{Status: 200})
	st := h.expect(StepRefill)
	h.f.Refilled(st.Origin, []store.URL{{ID: store.IDOf(testOrigin + "/3"), URL: testOrigin + "/3", Origin: testOrigin}}, st.Limit, h.now)
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/3") {
		t.Fatalf("%+v", st)
	}
}

func TestDoneWhenNothingLeft(t *testing.T) {
	h := newHarness(t, Options{}, "/1")
	h.robots(200, "", nil)
	st := h.expect(StepFetch)
	h.f.Done(st.URL, Outcome{Status: 200}, h.now)
	h.expect(StepWait) // the write is not durable yet
	h.f.Persisted(st.Origin, h.now)
	h.expect(StepDone)
}

func TestPathAndQueryAndHost(t *testing.T) {
	for in, want := range map[string]string{
		"http://a.test":           "/",
		"http://a.test/":          "/",
		"http://a.test:8080/x?y":  "/x?y",
		"https://a.test?q=1":      "/?q=1",
		"http://[::1]:80/p#frag":  "/p",
		"http://a.test/p?q#f?g/h": "/p?q",
	} {
		if got := pathAndQuery(in); got != want {
			t.Errorf("pathAndQuery(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"http://a.test": "a.test", "http://a.test:81": "a.test", "https://[::1]:8443": "[::1]",
	} {
		if got := hostOf(in); got != want {
			t.Errorf("hostOf(%q) = %q", in, got)
		}
	}
}
