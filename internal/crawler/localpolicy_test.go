package crawler

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/urlnorm"
)

// issue 27 ("a local policy refusal is never a fetch error"): a link to a name that resolves to
// a loopback address (localhost), on a crawl that may not connect there, is refused by the
// dialer. That is this process's policy, not the origin's failure: nothing is requested, the URL
// stays queued with no attempt counted (a later run with permission crawls it), no page of
// MaxPages is spent, it is not a give-up, and the run says once why the origin was left.
func TestIssue27_PrivateAddressRefusalLeavesURLQueued(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	sites := []testweb.Site{
		{Key: "a", Robots: &robots, Pages: []testweb.Page{{Path: "/p1", Title: "one"}, {Path: "/p2", Title: "two"}}},
		{Key: "b", Robots: &robots, Pages: []testweb.Page{{Path: "/", Title: "b home"}}},
	}
	e := newEnv(t, sites)
	local := "http://localhost:" + strings.TrimPrefix(e.web.Addr("b"), "127.0.0.1:") + "/"
	e.web.Set("a", testweb.Page{Path: "/", Title: "Home", Links: []string{"/p1", local, "/p2"}})
	st := e.crawl([]string{"{a}/"}, func(o *Options) {
		o.Scope = urlnorm.ScopeAny
		o.MaxPages = 3 // the three pages of a: the refused URL must not take one of them
	})
	if got := len(e.web.Requests()); got == 0 {
		t.Fatal("nothing was requested")
	}
	for _, r := range e.web.Requests() {
		if r.Key == "b" {
			t.Errorf("b was requested (%s) although the crawl may not connect to loopback", r.Path)
		}
	}
	if st.Refused != 1 || st.Errors != 0 || st.Retries != 0 {
		t.Errorf("stats: %d refused, %d given up, %d retries; want 1, 0, 0", st.Refused, st.Errors, st.Retries)
	}
	if st.Pages != 3 {
		t.Errorf("%d pages answered; want the 3 of a (the refusal spent none of MaxPages 3)", st.Pages)
	}
	u, ok := e.urls()[local]
	if !ok || u.State != store.StateQueued || u.Attempts != 0 || u.NextAt.IsZero() {
		t.Errorf("%s: %+v; want queued, due, no attempt counted", local, u)
	}
	if !strings.Contains(st.Failure, "non-public address refused") || !strings.Contains(st.Failure, "--allow-private") {
		t.Errorf("Failure %q; want the refusal and the flag that allows it", st.Failure)
	}
}
