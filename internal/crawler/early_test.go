package crawler

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb"
)

// holdLimit bounds how long a test holds a page's processing while waiting for a request that
// should be sent meanwhile: the failure bound of a test, never a pause it waits out.
const holdLimit = 5 * time.Second

// sentFetcher tells, through sent, the URL of each page request it makes when the request
// leaves (before its answer is read), and through got (when set) each answer's status once read.
type sentFetcher struct {
	Fetcher
	sent func(url string)
	got  func(url string, status int)
}

func (f sentFetcher) Get(ctx context.Context, req fetch.Request) (*fetch.Response, error) {
	f.sent(req.URL)
	resp, err := f.Fetcher.Get(ctx, req)
	if f.got != nil && resp != nil {
		f.got(req.URL, resp.Status)
	}
	return resp, err
}

// Issue 8 and docs/design.md (an origin's next URL is dispatched as soon as its politeness rules
// allow): with --per-origin 1 and no delay, the origin's next request leaves once the previous
// answer has been read, while that page is still being processed (its extraction, links and
// document; here an OnDocument callback that holds it). Per-origin concurrency counts requests
// on the wire, not pages being processed. The request log still shows robots.txt first and each
// page requested once.
func TestIssue8_NextRequestLeavesWhileThePreviousPageIsProcessed(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	site := testweb.Site{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/one", Title: "One"}, {Path: "/two", Title: "Two"},
	}}
	e := newEnv(t, []testweb.Site{site})
	one, two := e.web.URL("a", "/one"), e.web.URL("a", "/two")
	sent := map[string]chan struct{}{one: make(chan struct{}), two: make(chan struct{})}
	var mu sync.Mutex
	fetcher := sentFetcher{Fetcher: e.client(), sent: func(url string) {
		mu.Lock()
		defer mu.Unlock()
		if ch, ok := sent[url]; ok {
			close(ch)
			delete(sent, url) // each page is requested once
		}
	}}
	other := map[string]chan struct{}{one: sent[two], two: sent[one]}
	var first sync.Once
	held := ""
	st := e.crawl([]string{"{a}/one", "{a}/two"}, func(o *Options) {
		o.Fetcher = fetcher
		o.Frontier.PerOrigin = 1
		o.OnDocument = func(d Document) {
			first.Do(func() { // the first page's processing holds until the other page's request leaves
				held = d.URL
				select {
				case <-other[d.URL]:
				case <-time.After(holdLimit):
					t.Errorf("the next request of the origin was not sent while %s was processed (held %v)", d.URL, holdLimit)
				}
			})
		}
	})
	e.checkGate()
	if held == "" || st.Pages != 2 {
		t.Fatalf("held %q, %d pages fetched; want both pages fetched, one held", held, st.Pages)
	}
	for _, p := range []string{"/one", "/two"} {
		if n := e.web.Count("a", p); n != 1 {
			t.Errorf("%s requested %d times, want once", p, n)
		}
	}
}

// docs/robots-rules.md rule 23 with issue 8: while a page of the origin is being processed, the
// next request may leave, but a 503 answer to it still pauses the origin before any further
// request: the URL after it waits out the pause (at least the one-minute minimum; checkGate
// reads the request log), and the answered URL is asked again as the probe.
func TestRule23_503StopsTheNextRequestWhileAPageIsProcessed(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	site := testweb.Site{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/zero", Title: "Zero"},
		{Path: "/one", Title: "One", Script: []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(120)}, {}}},
		{Path: "/two", Title: "Two"},
	}}
	e := newEnv(t, []testweb.Site{site})
	zero, one := e.web.URL("a", "/zero"), e.web.URL("a", "/one")
	refused := make(chan struct{})
	var once sync.Once
	fetcher := sentFetcher{Fetcher: e.client(), sent: func(string) {}, got: func(url string, status int) {
		if url == one && status == 503 {
			once.Do(func() { close(refused) })
		}
	}}
	st := e.crawl([]string{"{a}/zero", "{a}/one", "{a}/two"}, func(o *Options) {
		o.Fetcher = fetcher
		o.Frontier.PerOrigin = 1
		o.MaxWait = time.Hour // wait out the pause in virtual time
		o.OnDocument = func(d Document) {
			if d.URL != zero {
				return
			}
			select { // /zero is processed until /one has answered 503
			case <-refused:
			case <-time.After(holdLimit):
				t.Errorf("/one was not requested while /zero was processed (held %v)", holdLimit)
			}
		}
	})
	e.checkGate()
	reqs := e.web.RequestsTo("a")
	var paths []string
	for _, r := range reqs {
		paths = append(paths, r.Path)
	}
	want := []string{testweb.RobotsPath, "/zero", "/one", "/one", "/two"}
	if !slices.Equal(paths, want) {
		t.Fatalf("requests %v, want %v (the refused URL probes first)", paths, want)
	}
	if gap := reqs[3].At.Sub(reqs[2].At); gap < 120*time.Second {
		t.Errorf("the probe left %v after the 503, want the 120 s of Retry-After", gap)
	}
	if st.Pages != 3 || st.Paused != 1 {
		t.Errorf("stats: %d pages, %d pausing answers; want 3 and 1", st.Pages, st.Paused)
	}
}
