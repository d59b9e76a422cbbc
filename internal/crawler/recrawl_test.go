package crawler

import (
	"context"
	"net/http"
	"testing"
	"time"

	gowarc "github.com/internetarchive/gowarc"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/warc"
)

// recrawlSite has a page with an ETag, a home page with Last-Modified, a noindex page, a page
// that will be deleted and one whose robot tags will change, each with a word of its own.
func recrawlSite() []testweb.Site {
	return []testweb.Site{{Key: "a", Robots: &testweb.Page{Body: "User-agent: *\nAllow: /\n", ContentType: "text/plain"},
		Pages: []testweb.Page{
			{Path: "/", Title: "Home", Text: "hearth", LastModified: t0.Add(-time.Hour),
				Links: []string{"/stable", "/hidden", "/doomed", "/withdrawn", "/turncoat"}},
			{Path: "/stable", Title: "Stable", Text: "granite", ETag: `"s1"`},
			{Path: "/hidden", Title: "Hidden", Text: "shadow", Meta: "noindex"},
			{Path: "/doomed", Title: "Doomed", Text: "ephemeral"},
			{Path: "/withdrawn", Title: "Withdrawn", Text: "rescinded"},
			{Path: "/turncoat", Title: "Turncoat", Text: "chameleon"},
		}}}
}

// requestsTo lists the requests of site a for path made at or after since.
func (e *env) requestsTo(path string, since time.Time) []testweb.Request {
	var out []testweb.Request
	for _, r := range e.web.RequestsTo("a") {
		if r.Path == path && !r.At.Before(since) {
			out = append(out, r)
		}
	}
	return out
}

// archivePass runs one crawl into a WARC writer of its own in dir.
func (e *env) archivePass(dir string, seeds []string, tune func(*Options)) {
	e.t.Helper()
	w, err := warc.New(warc.Options{Dir: dir, Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.archiveRun(w, seeds, tune); err != nil {
		e.t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		e.t.Fatal(err)
	}
}

// Issue 13, "a two-pass crawl scenario": the second pass (--recrawl-after) sends conditional
// requests; the 304 pages are not downloaded again (the server log shows 304 answers) and stay
// searchable, archived as revisit records that refer to the first capture; the noindex page is
// fetched again; a page deleted between the passes is gone from search; a page that now says
// noindex leaves the index (docs/robots-rules.md rule 27).
func TestRecrawlTwoPasses(t *testing.T) {
	e := newEnv(t, recrawlSite())
	dir := t.TempDir()
	e.archivePass(dir, []string{"{a}/"}, nil)
	first := e.urls()
	if _, ok := e.found("granite", "/stable"); !ok {
		t.Fatal("pass 1: /stable not searchable")
	}
	if _, ok := e.found("chameleon", "/turncoat"); !ok {
		t.Fatal("pass 1: /turncoat not searchable")
	}

	e.clock.Advance(2 * time.Hour)
	pass2 := e.clock.Now()
	e.web.Delete("a", "/doomed")
	e.web.Set("a", testweb.Page{Path: "/withdrawn", Status: 410})
	e.web.Set("a", testweb.Page{Path: "/turncoat", Title: "Turncoat", Text: "chameleon", Meta: "noindex"})
	e.archivePass(dir, nil, func(o *Options) { o.RecrawlAfter = time.Hour })
	e.checkGate()

	// Conditional requests, answered 304: nothing downloaded again.
	for path, header := range map[string]string{"/stable": "If-None-Match", "/": "If-Modified-Since"} {
		reqs := e.requestsTo(path, pass2)
		if len(reqs) != 1 {
			t.Fatalf("pass 2: %d requests of %s, want 1", len(reqs), path)
		}
		if reqs[0].Header.Get(header) == "" || reqs[0].Status != 304 {
			t.Errorf("pass 2: %s sent %s %q and got %d, want a conditional request answered 304", path, header, reqs[0].Header.Get(header), reqs[0].Status)
		}
	}
	// The 304 page keeps its document, with a new fetch time and a revisit record.
	u := e.urls()[e.web.URL("a", "/stable")]
	if !u.FetchedAt.Equal(pass2) && u.FetchedAt.Before(pass2) || u.State != store.StateFetched || u.Status != 200 || !u.Indexed {
		t.Errorf("pass 2: /stable is %s %d fetched t0%+v indexed %v; want fetched 200 at pass 2, indexed", u.State, u.Status, u.FetchedAt.Sub(t0), u.Indexed)
	}
	if _, ok := e.found("granite", "/stable"); !ok {
		t.Error("pass 2: the 304 page /stable left the index")
	}
	h, _ := recordAtRef(t, dir, u.WARC)
	if hd := gowarc.Header(h); hd.Get("WARC-Type") != "revisit" || hd.Get("WARC-Refers-To") != first[u.URL].WARC.RecordID ||
		hd.Get("WARC-Profile") != string(warc.ProfileServerNotModified) {
		t.Errorf("pass 2: /stable's record is %s (profile %q) referring to %q; want a server-not-modified revisit of %q",
			hd.Get("WARC-Type"), hd.Get("WARC-Profile"), hd.Get("WARC-Refers-To"), first[u.URL].WARC.RecordID)
	}
	// The noindex page is fetched again, in full (it has no validators).
	if reqs := e.requestsTo("/hidden", pass2); len(reqs) != 1 || reqs[0].Status != 200 {
		t.Errorf("pass 2: the noindex page was requested %d times (%v), want once, answered 200", len(reqs), reqs)
	}
	// The deleted page is gone from search; the page that turned noindex left the index.
	if reqs := e.requestsTo("/doomed", pass2); len(reqs) != 1 || reqs[0].Status != 404 {
		t.Errorf("pass 2: /doomed requests %v, want one answered 404", reqs)
	}
	if r, ok := e.found("ephemeral", "/doomed"); ok {
		t.Errorf("pass 2: the deleted page is still found: %+v", r)
	}
	if reqs := e.requestsTo("/withdrawn", pass2); len(reqs) != 1 || reqs[0].Status != 410 {
		t.Errorf("pass 2: /withdrawn requests %v, want one answered 410", reqs)
	}
	if r, ok := e.found("rescinded", "/withdrawn"); ok {
		t.Errorf("pass 2: the page that answers 410 is still found: %+v", r)
	}
	if r, ok := e.found("chameleon", "/turncoat"); ok {
		t.Errorf("pass 2: the page that now says noindex is still found (rule 27): %+v", r)
	}
	// Every fetched URL has exactly one record per pass; the digests verify (readArchive).
	answers := map[string]int{}
	for _, r := range readArchive(t, dir) {
		if typ := r.get("WARC-Type"); typ == "response" || typ == "revisit" {
			answers[r.get("WARC-Target-URI")]++
		}
	}
	for _, u := range e.urls() {
		if u.State == store.StateFetched && answers[u.URL] != 2 {
			t.Errorf("%s: %d response or revisit records over two passes, want 2", u.URL, answers[u.URL])
		}
	}
	// robots.txt is still fresh (48 h): revalidated under its own TTL, not with the pages.
	if n := len(e.requestsTo("/robots.txt", pass2)); n != 0 {
		t.Errorf("pass 2: robots.txt requested %d times while its copy is fresh", n)
	}
}

// Issue 13: a new --revisit applies to pages already fetched, and --recrawl makes every fetched
// URL due at once, however recent; without either, nothing is due again before the revisit
// interval. A page that changed is downloaded again in full and re-indexed.
func TestRevisitChangeAndForcedRecrawl(t *testing.T) {
	e := newEnv(t, recrawlSite())
	e.crawl([]string{"{a}/"}, nil)
	fetchedOnce := func(path string) int { return len(e.requestsTo(path, t0)) }

	// One hour later, a plain resume finds nothing due (the default revisit is 24 h).
	e.clock.Advance(time.Hour)
	e.crawl([]string{"{a}/"}, nil)
	if n := fetchedOnce("/turncoat"); n != 1 {
		t.Fatalf("a resume one hour later fetched /turncoat again (%d requests)", n)
	}

	// --revisit 30m now applies to what was fetched an hour ago: everything is due.
	e.web.Set("a", testweb.Page{Path: "/turncoat", Title: "Turncoat", Text: "platypus"})
	e.crawl([]string{"{a}/"}, func(o *Options) { o.Revisit, o.ApplyRevisit = 30*time.Minute, true })
	if n := fetchedOnce("/turncoat"); n != 2 {
		t.Errorf("after --revisit 30m: /turncoat requested %d times, want 2", n)
	}
	if _, ok := e.found("platypus", "/turncoat"); !ok {
		t.Error("the changed page was not re-indexed")
	}
	if _, ok := e.found("chameleon", "/turncoat"); ok {
		t.Error("the changed page is still found by its old text")
	}
	if n := fetchedOnce("/hidden"); n != 2 {
		t.Errorf("after --revisit 30m: the noindex page requested %d times, want 2", n)
	}

	// --recrawl: due now although fetched a moment ago.
	e.clock.Advance(time.Minute)
	e.crawl([]string{"{a}/"}, func(o *Options) { o.Recrawl = true })
	for _, p := range []string{"/", "/stable", "/hidden", "/turncoat"} {
		if n := fetchedOnce(p); n != 3 {
			t.Errorf("after --recrawl: %s requested %d times, want 3", p, n)
		}
	}
	if n := len(e.requestsTo("/stable", t0.Add(time.Hour+time.Minute))); n != 1 {
		t.Errorf("--recrawl: /stable requested %d times in the forced pass", n)
	}
}

// Issue 13: "each origin's robots.txt is revalidated under its own TTL, independently"
// (docs/robots-rules.md rule 22). Two hours on, a recrawl revalidates the robots.txt of the
// origin whose copy lived one hour (max-age=3600), with its ETag, and archives the 304 as a
// revisit; the other origin's copy is still fresh (48 h) and is not asked for.
func TestRecrawlRevalidatesRobotsPerOrigin(t *testing.T) {
	short := &testweb.Page{Body: "User-agent: *\nAllow: /\n", ContentType: "text/plain", ETag: `"r1"`,
		Header: http.Header{"Cache-Control": {"max-age=3600"}}}
	e := newEnv(t, []testweb.Site{
		{Key: "a", Robots: &testweb.Page{Body: "User-agent: *\nAllow: /\n", ContentType: "text/plain"},
			Pages: []testweb.Page{{Path: "/", Title: "A"}}},
		{Key: "b", Robots: short, Pages: []testweb.Page{{Path: "/", Title: "B"}}},
	})
	dir := t.TempDir()
	e.archivePass(dir, []string{"{a}/", "{b}/"}, nil)
	e.clock.Advance(2 * time.Hour)
	pass2 := e.clock.Now()
	e.archivePass(dir, nil, func(o *Options) { o.Recrawl = true })

	if n := len(e.web.RequestsTo("a")); n != 3 {
		t.Errorf("origin a: %d requests over two passes, want 3 (robots.txt once, / twice)", n)
	}
	var aRobots, bRobots []testweb.Request
	for _, r := range e.web.Requests() {
		if r.Path == testweb.RobotsPath && !r.At.Before(pass2) {
			if r.Key == "a" {
				aRobots = append(aRobots, r)
			} else {
				bRobots = append(bRobots, r)
			}
		}
	}
	if len(aRobots) != 0 {
		t.Errorf("pass 2: origin a's fresh robots.txt was requested %d times", len(aRobots))
	}
	if len(bRobots) != 1 || bRobots[0].Header.Get("If-None-Match") != `"r1"` || bRobots[0].Status != 304 {
		t.Fatalf("pass 2: origin b's robots.txt requests %v, want one conditional request answered 304", bRobots)
	}
	o, _, err := e.store.Origin(context.Background(), e.web.Origin("b"))
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := recordAtRef(t, dir, o.Robots.WARC); gowarc.Header(h).Get("WARC-Type") != "revisit" {
		t.Errorf("origin b's robots.txt names a %q record after its 304, want the revisit", gowarc.Header(h).Get("WARC-Type"))
	}
}
