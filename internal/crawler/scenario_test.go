package crawler

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// TestScenarios runs every fetching scenario of docs/robots-rules.md sections C and D (each names
// its rule) against the real crawler and checks, from the web's request log, what was and was
// not requested, and that nothing ever bypassed the origin gate.
func TestScenarios(t *testing.T) {
	for _, sc := range testweb.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			e := newEnv(t, sc.Sites)
			st := e.crawl(sc.Seeds, nil)
			for _, ref := range sc.Fetched {
				if !e.requested(ref) {
					t.Errorf("%s: %s was never requested (stop: %s)", sc.Rule, ref, st.StopReason)
				}
			}
			for _, ref := range sc.NotFetched {
				if e.requested(ref) {
					t.Errorf("%s: %s was requested", sc.Rule, ref)
				}
			}
			e.checkGate()
			if t.Failed() {
				for _, r := range e.web.Requests() {
					t.Logf("%4d %s %-8s %s %d", r.Seq, r.At.Sub(t0), r.Key, r.Path, r.Status)
				}
			}
		})
	}
}

// docs/robots-rules.md rule 23: after a 503 with Retry-After: 120, nothing reaches the origin for
// 120 s; then the paused URL is asked again as the single probe.
func TestRule23_PauseHonoursRetryAfterThenProbes(t *testing.T) {
	e := newEnv(t, testweb.PagePaused(503, testweb.RetrySeconds))
	e.crawl([]string{"{a}/"}, nil)
	reqs := e.web.RequestsTo("a")
	var busy []testweb.Request
	for i, r := range reqs {
		if r.Path == "/busy" {
			busy = append(busy, r)
			if r.Status == 503 && i+1 < len(reqs) {
				next := reqs[i+1]
				if gap := next.At.Sub(r.At); gap < testweb.ScenarioRetryAfter {
					t.Errorf("next request %s only %v after the 503", next.Path, gap)
				}
				if next.Path != "/busy" {
					t.Errorf("the first request after the pause is %s, want the probe /busy", next.Path)
				}
			}
		}
	}
	if len(busy) < 2 || busy[0].Status != 503 || busy[len(busy)-1].Status != 200 {
		t.Fatalf("/busy requests: %+v", busy)
	}
}

// docs/robots-rules.md rule 23: once the probe gets an answer that is not a 503 or 429, the
// pause is over, and the store says so too (issue 10: the dashboard showed "probing after a
// pause" long after it had ended): no probing, no pause reason, the backoff reset.
func TestRule23_ProbeAnsweredEndsThePauseInTheStore(t *testing.T) {
	e := newEnv(t, testweb.PagePaused(503, testweb.RetrySeconds))
	e.crawl([]string{"{a}/"}, nil)
	if busy := e.urls()[e.web.URL("a", "/busy")]; busy.Status != 200 {
		t.Fatalf("/busy: %+v; want the probe answered 200", busy)
	}
	o, ok, err := e.store.Origin(t.Context(), e.web.Origin("a"))
	if err != nil || !ok {
		t.Fatalf("origin a: %v, known %v", err, ok)
	}
	if o.Probing || o.PauseReason != "" || o.PauseStrikes != 0 {
		t.Errorf("after the probe was answered 200, the store has probing %v, pause reason %q, strikes %d; want the pause ended",
			o.Probing, o.PauseReason, o.PauseStrikes)
	}
}

// docs/robots-rules.md rule 22: within 48 h a second crawl reuses the stored robots.txt decision;
// after 48 h it asks again.
func TestRule22_RobotsCacheSurvivesRunsFor48Hours(t *testing.T) {
	e := newEnv(t, testweb.RobotsOK())
	e.crawl([]string{"{a}/"}, nil)
	if n := e.web.Count("a", testweb.RobotsPath); n != 1 {
		t.Fatalf("first crawl fetched robots.txt %d times", n)
	}
	e.clock.Advance(25 * time.Hour) // pages are due again (revisit 24 h), robots.txt is not
	e.crawl(nil, nil)
	if n := e.web.Count("a", testweb.RobotsPath); n != 1 {
		t.Fatalf("after 25 h robots.txt was fetched %d times, want the cached copy", n)
	}
	if n := e.web.Count("a", "/public"); n != 2 {
		t.Fatalf("after 25 h /public was fetched %d times, want a revisit", n)
	}
	e.clock.Advance(24 * time.Hour)
	e.crawl(nil, nil)
	if n := e.web.Count("a", testweb.RobotsPath); n != 2 {
		t.Fatalf("after 49 h robots.txt was fetched %d times, want 2", n)
	}
	e.checkGate()
}

// Every decision is recorded per URL: a disallowed URL has its rule and line.
func TestDecisionsRecordedPerURL(t *testing.T) {
	e := newEnv(t, testweb.RobotsOK())
	e.crawl([]string{"{a}/"}, nil)
	u, ok := e.urls()[e.web.URL("a", "/private/secret")]
	if !ok || u.State != "robots_disallowed" || u.RuleLine != 2 || !strings.Contains(u.Reason, "Disallow: /private") {
		t.Fatalf("disallowed URL record: %+v (known: %v)", u, ok)
	}
}

// docs/robots-rules.md rule 23: a 503 pauses the origin even when its body cannot be decoded.
func TestRule23_CorruptBody503StillPauses(t *testing.T) {
	site := testweb.Site{Key: "a", Pages: []testweb.Page{
		{Path: "/", Links: []string{"/bad", "/next"}},
		{Path: "/bad", Script: []testweb.Step{
			{Status: 503, Header: http.Header{"Content-Encoding": {"gzip"}, "Retry-After": {"300"}}, Body: "this is not gzip"},
			{Status: 200},
		}},
		{Path: "/next", Title: "Next"},
	}}
	e := newEnv(t, []testweb.Site{site})
	e.crawl([]string{"{a}/"}, func(o *Options) { o.MaxWait = 10 * time.Minute })
	reqs := e.web.RequestsTo("a")
	for i, r := range reqs {
		if r.Path == "/bad" && r.Status == 503 {
			if i+1 >= len(reqs) || reqs[i+1].At.Sub(r.At) < 300*time.Second {
				t.Fatalf("after a 503 with a corrupt body the origin was not paused for 300 s: %+v", reqs)
			}
			return
		}
	}
	t.Fatalf("no 503 seen: %+v", reqs)
}

// Issue 3: re-running resumes the same crawl, seeds omitted: the scope stays that of the seeds
// stored by earlier runs (found by the kill -9 test: links were all "out of scope" on resume).
func TestResumeWithoutSeedsKeepsScope(t *testing.T) {
	e := newEnv(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Links: []string{"/one"}}, {Path: "/one", Links: []string{"/two"}}, {Path: "/two"},
	}}})
	e.crawl([]string{"{a}/"}, func(o *Options) { o.MaxPages = 1 })
	e.crawl(nil, nil)
	for _, p := range []string{"/one", "/two"} {
		if e.web.Count("a", p) != 1 {
			t.Errorf("%s fetched %d times after resuming without seeds", p, e.web.Count("a", p))
		}
	}
}
