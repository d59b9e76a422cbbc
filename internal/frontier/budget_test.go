package frontier

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// issue 9 ("trap defences": --max-pages-per-origin): an origin gets at most MaxPagesPerOrigin
// page requests; the URLs past its budget are handed back as rejects naming the budget, never as
// requests. A request cancelled by the run stopping, or paused by a 503 (rule 23: asked again as
// the probe), does not spend the budget.
func TestPageBudgetPerOrigin(t *testing.T) {
	h := newHarness(t, Options{MaxPagesPerOrigin: 2}, "/1", "/2", "/3", "/4")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	first := h.expect(StepFetch)
	h.f.Canceled(first.URL, h.now) // not an answer: taken back
	h.f.Push(first.URL, h.now)
	h.done(h.expect(StepFetch), Outcome{Status: 503}) // /2 pauses the origin
	h.now = h.next().Until
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/2") {
		t.Fatalf("probe %s, want /2 again", st.URL.URL)
	} else {
		h.done(st, Outcome{Status: 200})
	}
	h.done(h.expect(StepFetch), Outcome{Status: 200}) // /3: the second page
	for range 2 {                                     // /4 and /1
		st := h.expect(StepReject)
		if !strings.HasPrefix(st.Reason, "trap page-budget: ") || !strings.Contains(st.Reason, "2 pages") {
			t.Fatalf("reject reason %q", st.Reason)
		}
		h.f.Persisted(st.Origin, h.now)
	}
	if st := h.next(); st.Kind != StepDone {
		t.Fatalf("step %+v after the budget, want done", st)
	}
}

// The budget counts pages: sitemaps named by robots.txt do not spend it.
func TestPageBudgetLeavesSitemapsOut(t *testing.T) {
	h := newHarness(t, Options{MaxPagesPerOrigin: 1})
	sm := store.URL{ID: store.IDOf(testOrigin + "/sitemap.xml"), URL: testOrigin + "/sitemap.xml", Origin: testOrigin, Kind: store.KindSitemap, State: store.StateQueued}
	h.f.Discover(sm, h.now)
	h.discover("/1")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.done(h.expect(StepFetch), Outcome{Status: 200})
}
