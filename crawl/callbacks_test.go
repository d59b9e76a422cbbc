package crawl_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/testweb"
)

// callbackWeb starts sites on a virtual clock and returns the web, the clock and a Config
// for them with a one-second delay and a store file of its own.
func callbackWeb(t *testing.T, sites []testweb.Site) (*testweb.Web, *clock.Virtual, crawl.Config) {
	t.Helper()
	vc := clock.NewVirtual(t0)
	web, err := testweb.Start(sites, testweb.Options{Now: vc.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	return web, vc, crawl.Config{
		Seeds: web.Seeds(), Resolve: web.Resolve(), Clock: vc, Delay: time.Second,
		MaxWait: 10 * time.Minute, StorePath: filepath.Join(t.TempDir(), "crawl.db"),
	}
}

// checkManners asserts the request log's gate check: nothing before an origin's robots.txt
// (rule 20), nothing during a 503/429 pause (rule 23), and at least delay between two
// requests to one origin (Config.Delay).
func checkManners(t *testing.T, web *testweb.Web, delay time.Duration) {
	t.Helper()
	if bad := web.BeforeRobots(); len(bad) > 0 {
		t.Errorf("requests before robots.txt (rule 20): %v", bad)
	}
	if bad := web.DuringPause(pause.DefaultFirstBackoff, pause.DefaultMax); len(bad) > 0 {
		t.Errorf("requests during a pause (rule 23): %v", bad)
	}
	for _, key := range web.Keys() {
		reqs := web.RequestsTo(key)
		for i := 1; i < len(reqs); i++ {
			if prev := reqs[i-1]; prev.Action == testweb.Reset && prev.Path == reqs[i].Path {
				// net/http's Transport asks again at once when a reused connection is reset:
				// the same request's second try, not a request of the crawl's (testweb.Reset).
				continue
			}
			if gap := reqs[i].At.Sub(reqs[i-1].At); gap < delay {
				t.Errorf("%s: %v came %v after %v, less than the delay %v", key, reqs[i], gap, reqs[i-1], delay)
			}
		}
	}
}

// Issue 28 item 1: OnPage has everything on the page: the final URL with its redirect chain,
// the status, the header, the body, and a DOM parsed when asked (once).
func TestOnPageHasBodyDOMAndRedirectsIssue28(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	web, _, cfg := callbackWeb(t, []testweb.Site{{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Home", Links: []string{"/old"}},
		testweb.Redirect("/old", 301, "/older"),
		testweb.Redirect("/older", 302, "/new"),
		{Path: "/new", Header: map[string][]string{"X-Shelf": {"7"}},
			Body: `<html><head><title>New</title></head><body><dl><dt class="sig">Ms. 17</dt><dd>vellum</dd></dl></body></html>`},
	}}})
	type seen struct {
		status           int
		location, shelf  string
		redirects        []string
		hops, depth      int
		body, sig, title string
		sameDOM          bool
	}
	pages := map[string]seen{}
	var kept *crawl.Page
	cfg.OnPage = func(p *crawl.Page) {
		s := seen{status: p.Status, location: p.Location, shelf: p.Header.Get("X-Shelf"), redirects: p.Redirects,
			hops: p.Hops, depth: p.Depth, body: string(p.Body), title: p.Title}
		if p.Status == 200 {
			dom, err := p.DOM()
			if err != nil {
				t.Errorf("%s: DOM: %v", p.URL, err)
				return
			}
			again, _ := p.DOM()
			s.sameDOM = dom == again
			s.sig = dom.Find("dt.sig").First().Text()
		}
		pages[strings.TrimPrefix(p.URL, web.Origin("a"))] = s
		kept = p
	}
	if _, err := crawl.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	checkManners(t, web, time.Second)
	o := web.Origin("a")
	n, ok := pages["/new"]
	switch {
	case !ok:
		t.Fatalf("/new never reached OnPage; pages %v", pages)
	case !slices.Equal(n.redirects, []string{o + "/old", o + "/older"}) || n.hops != 2:
		t.Errorf("/new: Redirects %v, Hops %d; want [/old /older] and 2", n.redirects, n.hops)
	case n.status != 200 || n.shelf != "7" || n.title != "New" || n.depth != 1:
		t.Errorf("/new: status %d, X-Shelf %q, title %q, depth %d", n.status, n.shelf, n.title, n.depth)
	case !strings.Contains(n.body, `<dt class="sig">Ms. 17</dt>`):
		t.Errorf("/new: body %q", n.body)
	case n.sig != "Ms. 17" || !n.sameDOM:
		t.Errorf("/new: dt.sig %q, same DOM on the second call %t", n.sig, n.sameDOM)
	}
	if old := pages["/old"]; old.status != 301 || old.location != o+"/older" || old.redirects != nil {
		t.Errorf("/old: status %d, Location %q, Redirects %v; want 301 to /older, none", old.status, old.location, old.redirects)
	}
	if older := pages["/older"]; !slices.Equal(older.redirects, []string{o + "/old"}) || older.hops != 1 {
		t.Errorf("/older: Redirects %v, Hops %d", older.redirects, older.hops)
	}
	// The Page is valid during the call only: its body goes back, Visit is refused.
	if kept.Body != nil {
		t.Error("Body still set after the call")
	}
	if err := kept.Visit("/late"); !errors.Is(err, crawl.ErrPageDone) {
		t.Errorf("Visit after the call: %v, want ErrPageDone", err)
	}
}

// Issue 28 item 2: URLs added from a callback take the road of the page's links: robots.txt
// (rule 20: /private is never requested), pauses (rule 23: /busy answers 503 first), the
// delay, the scope (another host is recorded, not followed), depth + 1, and the store (a run
// that stops after the first page leaves them queued; the next run, with no seeds, fetches
// them).
func TestVisitTakesTheRoadOfLinksIssue28(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nDisallow: /private\n")
	web, vc, cfg := callbackWeb(t, []testweb.Site{
		{Key: "a", Robots: &robots, Pages: []testweb.Page{
			{Path: "/", Title: "List", Text: "no links here"},
			{Path: "/list?page=2", Title: "List 2"},
			{Path: "/private/x", Title: "Secret"},
			{Path: "/busy", Title: "Busy", Script: []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(120)}, {}}},
		}},
		{Key: "b", Pages: []testweb.Page{{Path: "/", Title: "Elsewhere"}}},
	})
	cfg.Seeds = web.Seeds("a")
	var mu sync.Mutex
	depth := map[string]int{}
	visitErrs := map[string]error{}
	cfg.OnPage = func(p *crawl.Page) {
		mu.Lock()
		defer mu.Unlock()
		path := strings.TrimPrefix(p.URL, web.Origin("a"))
		depth[path] = p.Depth
		if path != "/" {
			return
		}
		for _, ref := range []string{"list?page=2", "/private/x", " /busy ", web.URL("b", "/"), "mailto:x@example.com"} {
			visitErrs[ref] = p.Visit(ref)
		}
	}
	first := cfg
	first.MaxPages = 1
	st, err := crawl.Run(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if st.StopReason != crawl.StopMaxPages || web.Count("a", "/list?page=2") != 0 {
		t.Fatalf("first run: stop %v, /list?page=2 requested %d times; want it left queued", st.StopReason, web.Count("a", "/list?page=2"))
	}
	for ref, want := range map[string]error{"list?page=2": nil, "/private/x": nil, " /busy ": nil, web.URL("b", "/"): crawl.ErrNotFollowed} {
		if err := visitErrs[ref]; !errors.Is(err, want) && !(want == nil && err == nil) {
			t.Errorf("Visit(%q) = %v, want %v", ref, err, want)
		}
	}
	if visitErrs["mailto:x@example.com"] == nil {
		t.Error("Visit(mailto:) succeeded")
	}

	vc.Advance(time.Hour)
	second := cfg
	second.Seeds = nil // resume from the store
	// The crawl remembers its MaxPages 1 (issue 27): this run lifts it.
	second.MaxPages = crawl.NoLimit
	st, err = crawl.Run(context.Background(), second)
	if err != nil {
		t.Fatal(err)
	}
	checkManners(t, web, time.Second)
	if d, ok := depth["/list?page=2"]; !ok || d != 1 {
		t.Errorf("/list?page=2: fetched %t at depth %d, want depth 1 (the adding page's + 1)", ok, d)
	}
	if n := web.Count("a", "/private/x"); n != 0 {
		t.Errorf("/private/x requested %d times: robots.txt disallows it", n)
	}
	if n := web.Count("a", "/busy"); n != 2 || depth["/busy"] != 1 {
		t.Errorf("/busy requested %d times (want the 503, then after the pause the page)", n)
	}
	if n := web.Count("b", "/"); n != 0 {
		t.Errorf("b/ requested %d times: it is outside the host scope", n)
	}
	if st.Disallowed != 1 {
		t.Errorf("second run: Disallowed %d, want 1", st.Disallowed)
	}
}

// Rule 26: a page whose robot tags say nofollow adds nothing through Visit either.
func TestVisitOnNofollowPageIsRefusedRule26(t *testing.T) {
	web, _, cfg := callbackWeb(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Home", Meta: "nofollow"},
		{Path: "/next", Title: "Next"},
	}}})
	var err error
	cfg.OnPage = func(p *crawl.Page) {
		if p.Depth == 0 {
			err = p.Visit("/next")
		}
	}
	if _, rerr := crawl.Run(context.Background(), cfg); rerr != nil {
		t.Fatal(rerr)
	}
	if !errors.Is(err, crawl.ErrPageNoFollow) || web.Count("a", "/next") != 0 {
		t.Errorf("Visit on a nofollow page: %v, /next requested %d times", err, web.Count("a", "/next"))
	}
}

// Issue 28 item 3: OnError receives each request without a usable answer, with the reason and
// whether it will be asked again: a connection reset is retried, then given up; a 503 pauses
// and is retried (its later 200 is a page, not a failure). The gate check holds throughout.
func TestOnErrorReportsFailuresAndRetriesIssue28(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	web, _, cfg := callbackWeb(t, []testweb.Site{{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Home", Links: []string{"/reset", "/busy", "/gone"}},
		{Path: "/reset", Script: []testweb.Step{{Do: testweb.Reset}}},
		{Path: "/busy", Title: "Busy", Script: []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(90)}, {}}},
		{Path: "/gone", Status: 404},
	}}})
	var failures []crawl.Failure
	statuses := map[string]int{}
	cfg.OnError = func(f crawl.Failure) { failures = append(failures, f) }
	cfg.OnPage = func(p *crawl.Page) { statuses[strings.TrimPrefix(p.URL, web.Origin("a"))] = p.Status }
	st, err := crawl.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkManners(t, web, time.Second)
	var reset []crawl.Failure
	var busy []crawl.Failure
	for _, f := range failures {
		switch strings.TrimPrefix(f.URL, web.Origin("a")) {
		case "/reset":
			reset = append(reset, f)
		case "/busy":
			busy = append(busy, f)
		default:
			t.Errorf("unexpected failure %+v", f)
		}
	}
	if len(reset) != 3 {
		t.Fatalf("/reset: %d failures, want 3 (two retries, then given up): %+v", len(reset), reset)
	}
	for i, f := range reset {
		if want := i < 2; f.Retry != want || f.Attempts != i+1 || f.Status != 0 || !strings.Contains(f.Reason, "no answer") {
			t.Errorf("/reset failure %d: %+v; want Retry %t, Attempts %d, no status, a reason", i, f, want, i+1)
		}
	}
	if len(busy) != 1 || busy[0].Status != 503 || !busy[0].Retry {
		t.Errorf("/busy failures %+v, want one 503 to be retried", busy)
	}
	if statuses["/busy"] != 200 || statuses["/gone"] != 404 {
		t.Errorf("pages: %v; want /busy 200 after its pause, /gone 404 (an answer, not a failure)", statuses)
	}
	if st.Errors != 1 || st.Retries != 2 {
		t.Errorf("Stats: Errors %d, Retries %d; want 1 and 2", st.Errors, st.Retries)
	}
}

// Issue 28: with VisitOnly the crawl requests what the callback visits and nothing else it
// finds: not the other links (recorded, not followed), not robots.txt's sitemaps.
func TestVisitOnlyFollowsOnlyVisitsIssue28(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\nSitemap: {a}/sitemap.xml\n")
	web, _, cfg := callbackWeb(t, []testweb.Site{{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Page 1", Links: []string{"/about", "/?page=2"}},
		{Path: "/?page=2", Title: "Page 2", Links: []string{"/about"}},
		{Path: "/about", Title: "About"},
		testweb.SitemapXML("/sitemap.xml", "{a}/from-sitemap"),
		{Path: "/from-sitemap", Title: "Listed"},
	}}})
	cfg.VisitOnly = true
	var titles []string
	cfg.OnPage = func(p *crawl.Page) {
		titles = append(titles, p.Title)
		if p.Depth == 0 {
			if err := p.Visit("/?page=2"); err != nil {
				t.Errorf("Visit: %v", err)
			}
		}
	}
	st, err := crawl.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkManners(t, web, time.Second)
	if !slices.Equal(titles, []string{"Page 1", "Page 2"}) {
		t.Errorf("pages %v, want Page 1 then Page 2 only", titles)
	}
	for _, path := range []string{"/about", "/sitemap.xml", "/from-sitemap"} {
		if n := web.Count("a", path); n != 0 {
			t.Errorf("%s requested %d times with VisitOnly", path, n)
		}
	}
	if st.OutOfScope == 0 {
		t.Error("the links not visited were not recorded as not followed")
	}
}
