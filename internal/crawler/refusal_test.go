package crawler

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 9 ("failures that end") and docs/robots-rules.md rule 23: on a site whose one section
// answers 503 for good, each broken URL is given up after MaxRefusals answers (state error, the
// reason saying so), the next probe after the pause is another URL of the origin, the pauses grow
// (exponential backoff, at least a minute: checkGate), and every good page is fetched.
func TestRule23_BrokenSectionIsGivenUpAndGoodPagesFetched(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	site := testweb.Site{Key: "a", Robots: &robots}
	home := testweb.Page{Path: "/", Title: "Home"}
	const broken, good = 2, 10 // 10 pauses: 1 min doubling to 8.5 h, within the 48 h robots.txt lifetime
	for i := range broken {
		p := fmt.Sprintf("/broken/%d", i)
		home.Links = append(home.Links, p)
		site.Pages = append(site.Pages, testweb.Page{Path: p, Status: 503})
	}
	for i := range good {
		p := fmt.Sprintf("/good/%d", i)
		home.Links = append(home.Links, p)
		site.Pages = append(site.Pages, testweb.Page{Path: p, Title: p})
	}
	site.Pages = append(site.Pages, home)
	e := newEnv(t, []testweb.Site{site})
	st := e.crawl([]string{"{a}/"}, func(o *Options) {
		o.MaxWait = 48 * time.Hour       // wait out every pause in virtual time
		o.Revisit = 365 * 24 * time.Hour // nothing fetched is due again
	})
	e.checkGate()
	if st.Paused != broken*MaxRefusals || st.Errors != broken {
		t.Errorf("stats: %d pausing answers, %d given up; want %d and %d", st.Paused, st.Errors, broken*MaxRefusals, broken)
	}
	urls := e.urls()
	for i := range good {
		if u := urls[e.web.URL("a", fmt.Sprintf("/good/%d", i))]; u.State != store.StateFetched {
			t.Errorf("/good/%d: %v (%s)", i, u.State, u.Reason)
		}
	}
	for i := range broken {
		p := fmt.Sprintf("/broken/%d", i)
		u := urls[e.web.URL("a", p)]
		if u.State != store.StateError || !strings.Contains(u.Reason, fmt.Sprintf("answered 503 %d times", MaxRefusals)) {
			t.Errorf("%s: %v (%s); want error, given up after %d answers", p, u.State, u.Reason, MaxRefusals)
		}
		if n := e.web.Count("a", p); n != MaxRefusals {
			t.Errorf("%s requested %d times, want %d", p, n, MaxRefusals)
		}
	}
	// The pauses grow: each gap between two requests after a 503 is longer than the one before.
	var last time.Time
	var gap time.Duration
	for _, r := range e.web.RequestsTo("a") {
		if !last.IsZero() {
			if d := r.At.Sub(last); d <= gap {
				t.Errorf("%s: pause %v after a 503, not longer than the one before (%v)", r.Path, d, gap)
			} else {
				gap = d
			}
		}
		last = time.Time{}
		if r.Status == 503 {
			last = r.At
		}
	}
}
