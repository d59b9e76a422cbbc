package crawler

import (
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// workersConcurrency is the crawl's concurrency in TestIssue26_WorkersStartAsTasksNeedThem:
// crawlbench's, far more than one origin at one request at a time ever has in flight.
const workersConcurrency = 512

// Issue 26: the workers start as the tasks in flight need them, not all of Concurrency at the
// start: a one-origin crawl at one request at a time (its early reports let two tasks be in
// flight) runs a handful of worker goroutines, not 512, and still fetches every page once.
func TestIssue26_WorkersStartAsTasksNeedThem(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	site := testweb.Site{Key: "a", Robots: &robots}
	for i := range 20 {
		next := "/p" + strconv.Itoa((i+1)%20)
		site.Pages = append(site.Pages, testweb.Page{Path: "/p" + strconv.Itoa(i), Title: "Page",
			Anchors: []testweb.Link{{Href: next, Text: "next"}}})
	}
	e := newEnv(t, []testweb.Site{site})
	before := runtime.NumGoroutine()
	var mu sync.Mutex
	peak := 0
	st := e.crawl([]string{"{a}/p0"}, func(o *Options) {
		o.Concurrency = workersConcurrency
		o.Frontier.PerOrigin = 1
		o.OnDocument = func(Document) {
			mu.Lock()
			defer mu.Unlock()
			peak = max(peak, runtime.NumGoroutine())
		}
	})
	e.checkGate()
	if st.Pages != 20 {
		t.Fatalf("%d pages fetched, want 20", st.Pages)
	}
	// The crawl's own goroutines (scheduler helpers, connections, the store) are a few dozen.
	grown := peak - before
	t.Logf("the crawl ran %d goroutines more than before it", grown)
	if grown >= workersConcurrency/4 {
		t.Errorf("the crawl ran %d more goroutines than before it, want fewer than %d: idle workers started", grown, workersConcurrency/4)
	}
}
