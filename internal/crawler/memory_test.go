package crawler

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
)

// budgetClient is the harness's client charging bodies to b, with pages cut at maxDecoded.
func (e *env) budgetClient(b *budget.Budget, maxDecoded int64) *fetch.Client {
	e.t.Helper()
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	c, err := fetch.New(fetch.Options{Resolve: resolve, Now: e.clock.Now, Budget: b, MaxDecodedBytes: maxDecoded,
		TotalTimeout: 20 * time.Second, ResponseHeaderTimeout: 10 * time.Second}) // an 11 MB page takes its time under -race
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(c.Close)
	return c
}

// issue 9 ("one memory budget for everything in flight"): every page's body goes back to the
// budget when the crawler is done with it, not when the garbage collector finds it: after a
// crawl nothing is charged.
func TestPageBodiesGoBackToTheBudget(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	site := testweb.Site{Key: "a", Robots: &robots}
	home := testweb.Page{Path: "/", Title: "Home"}
	for i := range 20 {
		p := fmt.Sprintf("/p%d", i)
		home.Links = append(home.Links, p)
		site.Pages = append(site.Pages, testweb.Page{Path: p, Title: p, Text: strings.Repeat("words ", 2000)})
	}
	site.Pages = append(site.Pages, home)
	e := newEnv(t, []testweb.Site{site})
	b := budget.New(64 << 20)
	e.crawl([]string{"{a}/"}, func(o *Options) { o.Fetcher = e.budgetClient(b, 4<<20) })
	if n := len(e.urls()); n != 21 {
		t.Fatalf("%d URLs, want 21", n)
	}
	if used := b.Used(); used != 0 {
		t.Errorf("%d bytes still charged to the budget after the crawl; every response must be released", used)
	}
}

// issue 9 ("bodies are streamed into extraction where possible"): a sitemap is parsed as it
// streams in, so the memory budget never holds it whole, and it is still read to its end.
func TestSitemapIsStreamedNotHeldWhole(t *testing.T) {
	var sm strings.Builder
	sm.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	const entries = 40000
	pad := strings.Repeat(" ", 200) // room between entries, so the file outgrows the budget
	for i := range entries {
		fmt.Fprintf(&sm, "<url><loc>{a}/p%d</loc><lastmod>2026-11-01</lastmod><changefreq>daily</changefreq></url>%s\n", i%3, pad)
	}
	sm.WriteString("</urlset>\n")
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\nSitemap: {a}/sitemap.xml\n")
	site := testweb.Site{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Home"},
		{Path: "/sitemap.xml", Body: sm.String(), ContentType: "application/xml"},
		{Path: "/p0", Title: "p0"}, {Path: "/p1", Title: "p1"}, {Path: "/p2", Title: "p2"},
	}}
	e := newEnv(t, []testweb.Site{site})
	b := budget.New(32 << 20)
	e.crawl([]string{"{a}/"}, func(o *Options) { o.Fetcher = e.budgetClient(b, 4<<20) })
	urls := e.urls()
	s := urls[e.web.URL("a", "/sitemap.xml")]
	if s.State != store.StateFetched || s.Reason != fmt.Sprintf("sitemap: %d entries", entries) {
		t.Fatalf("sitemap: %v (%s); want fetched with all %d entries", s.State, s.Reason, entries)
	}
	for i := range 3 {
		if u := urls[e.web.URL("a", fmt.Sprintf("/p%d", i))]; u.State != store.StateFetched {
			t.Errorf("/p%d: %v (%s)", i, u.State, u.Reason)
		}
	}
	if peak := b.Peak(); peak > int64(sm.Len()/2) {
		t.Errorf("the budget's peak was %d bytes for a sitemap of %d; a streamed sitemap takes a few buffers", peak, sm.Len())
	}
}

// issue 8 item 6 ("memory bounded at scale", the sitemap burst): a crawl whose sitemaps list many
// URLs at once holds at most Options.MaxPendingNew new URLs waiting for commit, plus those of the
// outcomes already in flight when the bound was reached (Concurrency of them, each a sitemap of
// perSitemap entries here); and no URL is dropped on the way: every sitemap entry is fetched.
func TestSitemapBurstBoundsPendingNewURLs(t *testing.T) {
	const origins, perSitemap, bound, concurrency = 20, 100, 150, 4
	var sites []testweb.Site
	for i := range origins {
		key := fmt.Sprintf("s%d", i)
		robots := testweb.RobotsTxt("User-agent: *\nAllow: /\nSitemap: {" + key + "}/sitemap.xml\n")
		site := testweb.Site{Key: key, Robots: &robots, Pages: []testweb.Page{{Path: "/", Title: "Home"}}}
		var locs []string
		for n := range perSitemap {
			p := fmt.Sprintf("/p/%d", n)
			locs = append(locs, "{"+key+"}"+p)
			site.Pages = append(site.Pages, testweb.Page{Path: p, Title: p})
		}
		site.Pages = append(site.Pages, testweb.SitemapXML("/sitemap.xml", locs...))
		sites = append(sites, site)
	}
	e := newEnv(t, sites)
	var seeds []string
	for i := range origins {
		seeds = append(seeds, fmt.Sprintf("{s%d}/", i))
	}
	st := e.crawl(seeds, func(o *Options) { o.Concurrency, o.MaxPendingNew = concurrency, bound })
	if limit := bound + concurrency*perSitemap; st.PendingNewPeak > limit || st.PendingNewPeak == 0 {
		t.Errorf("peak of new URLs waiting for commit: %d; want 1..%d (MaxPendingNew %d + %d sitemaps in flight x %d)",
			st.PendingNewPeak, limit, bound, concurrency, perSitemap)
	}
	if st.PendingNew != 0 {
		t.Errorf("%d new URLs still waiting for commit after the crawl", st.PendingNew)
	}
	urls := e.urls()
	for i := range origins {
		for n := range perSitemap {
			u := e.web.URL(fmt.Sprintf("s%d", i), fmt.Sprintf("/p/%d", n))
			if urls[u].State != store.StateFetched {
				t.Fatalf("%s: %v (%s); every sitemap entry must be fetched, none dropped", u, urls[u].State, urls[u].Reason)
			}
		}
	}
}
