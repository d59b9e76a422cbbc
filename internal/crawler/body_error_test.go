package crawler

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("failures that end"): a body that breaks off after the header is a network error:
// the URL is retried, and after the retries it is in the error state with its reason; it is
// never recorded as fetched.
func TestBodyBrokenMidwayIsRetriedThenError(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	e := newEnv(t, []testweb.Site{{
		Key: "a", Robots: &robots,
		Pages: []testweb.Page{{Path: "/", Links: []string{hostile.PathBreak}}},
		Raw:   hostile.NewHandler(hostile.Options{}),
	}})
	e.crawl([]string{"{a}/"}, func(o *Options) { o.MaxAttempts = 3 })
	u, ok := e.urls()[e.web.URL("a", hostile.PathBreak)]
	if !ok {
		t.Fatal("the broken page was never discovered")
	}
	if u.State != store.StateError || !strings.Contains(u.Reason, "reset") {
		t.Fatalf("state %v, reason %q; want error with a reset reason", u.State, u.Reason)
	}
	if n := e.web.Count("a", hostile.PathBreak); n != 3 {
		t.Errorf("%d requests of the broken page, want 3 (MaxAttempts)", n)
	}
}
