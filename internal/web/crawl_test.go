package web

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// hostileTitle is the title of the sky web's hostile page, as the extractor reads it from the
// <title> element (its content is text, script tags and all).
const hostileTitle = `Nebula <script>window.pwned=1;document.title='pwned'</script> "oddities" & 'more'`

// skyWeb is one origin: a catalogue linking to eleven nebula pages, to a hostile page that only
// mentions nebulae once, deep in its text, and to a page robots.txt blocks (a link-only entry,
// rule 28). Twelve indexed results and one link-only entry match "nebula": two result pages.
func skyWeb() []testweb.Site {
	home := testweb.Page{Path: "/", Title: "Star catalogue", Text: "An index of the sky."}
	var pages []testweb.Page
	for i := 1; i <= 11; i++ {
		path := fmt.Sprintf("/ngc/%d", 7000+i)
		home.Anchors = append(home.Anchors, testweb.Link{Href: path, Text: fmt.Sprintf("entry %d", i)})
		pages = append(pages, testweb.Page{Path: path, Title: fmt.Sprintf("Nebula NGC %d", 7000+i),
			Text: fmt.Sprintf("NGC %d is a nebula of gas and dust, catalogued with its neighbours.", 7000+i)})
	}
	home.Anchors = append(home.Anchors,
		testweb.Link{Href: "/oddities", Text: "cabinet"},
		testweb.Link{Href: "/vault/charts", Text: "the nebula charts vault"})
	filler := strings.Repeat("<p>Dust, brass, lenses, ledgers and the smell of old paper fill every drawer of the cabinet.</p>\n", 30)
	hostile := testweb.Page{Path: "/oddities", Body: `<!DOCTYPE html>
<html><head><title>` + hostileTitle + `</title>
<script>window.pwned = 2; document.title = 'pwned';</script></head>
<body><h1>Oddities</h1>
<p>Somewhere in this cabinet is a glass slide of a nebula. <img src=x onerror="window.pwned=3"></p>
` + filler + `<a href="javascript:window.pwned=4">click</a></body></html>`}
	robots := testweb.RobotsTxt("User-agent: *\nDisallow: /vault\n")
	return []testweb.Site{{Key: "sky", Robots: &robots, Pages: append([]testweb.Page{home, hostile}, pages...)}}
}

// crawlSky crawls skyWeb into a fresh SQLite store with a virtual clock (no real waiting), and
// returns the store reopened read-only, as `mandelbot serve` opens it.
func crawlSky(t *testing.T) (*sqlite.Store, *testweb.Web) {
	t.Helper()
	clk := clock.NewVirtual(t0)
	web, err := testweb.Start(skyWeb(), testweb.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	resolve := map[string]string{}
	for _, r := range web.Resolve() {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			t.Fatal(err)
		}
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, Now: clk.Now, TotalTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	path := filepath.Join(t.TempDir(), "crawl.db")
	st, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := crawler.Run(ctx, crawler.Options{Seeds: web.Seeds("sky"), Fetcher: client, Store: st, Clock: clk,
		MaxDepth: -1, Concurrency: 4}); err != nil {
		t.Fatalf("crawl: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := sqlite.Open(t.Context(), path, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	return ro, web
}

// The sky web, crawled for real, as the search page shows it: the blocked page was never
// requested yet is a link-only entry (rule 28); it and the hostile page rank low, on page 2.
func TestSearchOverARealCrawl(t *testing.T) {
	st, web := crawlSky(t)
	if n := web.Count("sky", "/vault/charts"); n != 0 {
		t.Fatalf("the crawl requested a disallowed URL %d time(s)", n)
	}
	srv := newSite(t, st, func(o *Options) { o.Now = time.Now })
	_, body := get(t, srv, "/?q=nebula")
	if got := text(byID(parseHTML(t, body), "count")); got != "Results 1–10 of 14" {
		t.Fatalf("count %q, want 14: 11 nebula pages, the catalogue, the hostile page, the link-only entry", got)
	}
	_, body = get(t, srv, "/?q=nebula&page=2")
	doc := parseHTML(t, body)
	if got := text(byID(doc, "count")); got != "Results 11–14 of 14" {
		t.Errorf("page 2 count %q", got)
	}
	found := map[string]string{}
	for _, r := range byClass(doc, "result") {
		found[text(firstClass(r, "url"))] = text(firstElement(r, "h2"))
	}
	if got := found[web.URL("sky", "/vault/charts")]; got != "the nebula charts vault not crawled · blocked by robots.txt" {
		t.Errorf("the blocked URL on page 2: %q", got)
	}
	if got := found[web.URL("sky", "/oddities")]; got != hostileTitle {
		t.Errorf("the hostile page on page 2: %q", got)
	}
}
