package crawler

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("trap defences"): on a site whose every /a/.../a/ page links to a/, the crawl stops
// growing the path at the repeated-segment heuristic; the URL it rejects is recorded out of scope
// with the heuristic named in its reason.
func TestTrapRepeatedSegmentEndsPathGrowth(t *testing.T) {
	e := newEnv(t, []testweb.Site{hostile.Site("a", hostile.Options{})})
	e.crawl([]string{"{a}" + hostile.PathGrowth}, nil)
	urls := e.urls()
	for _, p := range []string{"/a/", "/a/a/", "/a/a/a/"} {
		if u := urls[e.web.URL("a", p)]; u.State != store.StateFetched {
			t.Errorf("%s: state %v, want fetched", p, u.State)
		}
	}
	u, ok := urls[e.web.URL("a", "/a/a/a/a/")]
	if !ok || u.State != store.StateOutOfScope || !strings.HasPrefix(u.Reason, "trap repeated-segment:") {
		t.Fatalf("/a/a/a/a/: %+v; want out of scope, reason naming repeated-segment", u)
	}
	if e.requested("{a}/a/a/a/a/") {
		t.Error("/a/a/a/a/ was requested")
	}
	if len(urls) != 4 {
		t.Errorf("%d URLs recorded, want 4: the growth must end", len(urls))
	}
}

// issue 9 ("trap defences": --max-pages-per-origin): a calendar trap (each month links to the
// next, forever, with plausible URLs the path heuristics pass) ends at the origin's page budget;
// the URL past it is recorded out of scope with the reason naming the budget, never requested.
func TestPageBudgetEndsACalendarTrap(t *testing.T) {
	e := newEnv(t, []testweb.Site{hostile.Site("c", hostile.Options{})})
	const budget = 5
	st := e.crawl([]string{"{c}" + hostile.PathCalendarPrefix + "2026/11"}, func(o *Options) { o.Frontier.MaxPagesPerOrigin = budget })
	var fetched, rejected int
	for _, u := range e.urls() {
		switch {
		case u.State == store.StateFetched:
			fetched++
		case u.State == store.StateOutOfScope && strings.HasPrefix(u.Reason, "trap page-budget: "):
			rejected++
			if e.web.Count("c", strings.TrimPrefix(u.URL, strings.TrimSuffix(e.web.URL("c", "/"), "/"))) != 0 {
				t.Errorf("%s was requested past the budget", u.URL)
			}
		default:
			t.Errorf("%s: %v (%s)", u.URL, u.State, u.Reason)
		}
	}
	if fetched != budget || rejected == 0 || st.Rejected != rejected {
		t.Errorf("fetched %d, rejected %d (stats %d); want %d fetched and the rest rejected by the budget", fetched, rejected, st.Rejected, budget)
	}
}
