package web

import (
	"testing"
	"time"
)

// issue 29 ("the dashboard ... show each origin's current gap and why"): beside a running crawl
// (Options.Gaps), each origin's row shows its gap between requests and the reason; an origin
// the crawl does not hold shows none.
func TestDashboardShowsTheGap(t *testing.T) {
	gaps := map[string]Gap{"http://a.test": {D: 10 * time.Second, Reason: "adaptive: the last answer took 5s × 2 (above --delay 1s)"}}
	srv := newSite(t, seedDashboard(t), func(o *Options) { o.Gaps = func() map[string]Gap { return gaps } })
	_, body := get(t, srv, "/dashboard")
	got := map[string]string{}
	for _, r := range rows(parseHTML(t, body), "origins") {
		got[r[0]] = r[len(r)-1]
	}
	if want := "10s adaptive: the last answer took 5s × 2 (above --delay 1s)"; got["http://a.test"] != want {
		t.Errorf("a.test's gap cell %q, want %q", got["http://a.test"], want)
	}
	if got["http://b.test"] != "—" {
		t.Errorf("b.test's gap cell %q, want none", got["http://b.test"])
	}
}
