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
