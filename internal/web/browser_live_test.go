package web

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// liveWeb is a shop with a few pages, one disallowed and one link to a news site the crawl
// never contacts (out of scope), and a site whose /busy page answers 503 with Retry-After: 120
// (rule 23), which holds the crawl while the browser looks.
func liveWeb() []testweb.Site {
	robots := testweb.RobotsTxt("User-agent: *\nDisallow: /private\n")
	shop := testweb.Site{Key: "shop", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Shop", Anchors: []testweb.Link{{Href: "/bread", Text: "Bread"}, {Href: "/cakes", Text: "Cakes"},
			{Href: "/private", Text: "Staff"}, {Href: "{news}/", Text: "News"}}},
		{Path: "/bread", Title: "Bread"}, {Path: "/cakes", Title: "Cakes"},
	}}
	return append(testweb.PagePaused(503, testweb.RetrySeconds), shop, testweb.Site{Key: "news"})
}

// pollJS evaluates expr in the tab until it is true, tolerating the moments a reloading page
// has no document; it fails the test at the deadline.
func pollJS(t *testing.T, tab context.Context, what, expr string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond) // polling the page, not waiting out a pause
	}
}

// Issue 10, in a real browser: the dashboard of a running crawl updates by itself and shows the
// paused origin with its resume time; the origin table lists only contacted origins by default,
// filters and sorts.
func TestBrowserDashboardOfRunningCrawl(t *testing.T) {
	web, err := testweb.Start(liveWeb(), testweb.Options{})
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
	client, err := fetch.New(fetch.Options{Resolve: resolve})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newSite(t, st, func(o *Options) { o.Now, o.Refresh = time.Now, time.Second })
	tab := newBrowser(t)

	run(t, tab, "dashboard before the crawl", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/dashboard"),
		chromedp.WaitVisible(chromedp.CSS(`#origin-summary`)),
	))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := crawler.Run(ctx, crawler.Options{Seeds: web.Seeds("a", "shop"), Fetcher: client, Store: st, MaxDepth: -1,
			Concurrency: 4, MaxWait: 10 * time.Minute})
		done <- err
	}()
	t.Cleanup(func() { cancel(); <-done; st.Close() })

	// The page reloads itself (Options.Refresh) and comes to show the pause.
	pollJS(t, tab, "the paused origin appears", `document.querySelector("table.origins tr.paused") !== null &&
		document.querySelectorAll("table.origins tbody tr").length === 2`, 15*time.Second)
	paused := run(t, tab, "paused row", chromedp.Text(chromedp.CSS(`table.origins tr.paused`)))
	if !strings.Contains(paused, web.Origin("a")) || !regexp.MustCompile(`until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in (2m0s|1m[0-9]+s)\)`).MatchString(paused) {
		t.Errorf("paused row %q: want the origin and its resume time", paused)
	}
	// Issue 10, item 2: every column of the origin table (counts, pause, robots.txt, fetched and
	// expiry, sitemaps, trap defences) is on screen in a 1100-pixel window, not scrolled away.
	fit := run(t, tab, "table width", chromedp.Evaluate[[]int](`(() => {
		const s = document.querySelector("table.origins").closest(".scroll");
		const last = document.querySelector("table.origins thead th:last-child").getBoundingClientRect();
		return [s.scrollWidth, s.clientWidth, Math.ceil(last.right), window.innerWidth];
	})()`))
	if fit[0] > fit[1] || fit[2] > fit[3] {
		t.Errorf("the origin table does not fit: %d px wide in a %d px box; its last column ends at %d px in a %d px window", fit[0], fit[1], fit[2], fit[3])
	}
	shoot(t, tab, "dashboard-running.png")

	// Only contacted origins by default: news is known from a link only.
	if rows := run(t, tab, "rows", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.origins tbody tr td:first-child")).map(td => td.textContent)`)); strings.Contains(fmt.Sprint(rows), web.Origin("news")) {
		t.Errorf("rows %v list the news origin, never contacted", rows)
	}
	// Include the others, and sort by fetched pages: the shop (3 pages) first, news last.
	run(t, tab, "include every origin", chromedp.Steps(
		chromedp.Click(chromedp.CSS(`input[name="origins"]`)),
		chromedp.Click(chromedp.CSS(`form.origin-filter button`)),
		chromedp.WaitVisible(chromedp.CSS(`#origin-summary`)),
	))
	pollJS(t, tab, "news listed", fmt.Sprintf(`document.querySelector("table.origins").textContent.includes(%q)`, web.Origin("news")), 5*time.Second)
	run(t, tab, "sort by fetched", chromedp.Steps(
		chromedp.Click(chromedp.CSS(`th a[href*="sort=fetched"]`)),
		chromedp.WaitVisible(chromedp.CSS(`th a.active`)),
	))
	order := run(t, tab, "order", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.origins tbody tr td:first-child")).map(td => td.textContent)`))
	if want := []string{web.Origin("shop"), web.Origin("a"), web.Origin("news")}; fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("sorted by fetched: %v, want %v", order, want)
	}
	shoot(t, tab, "dashboard-sorted.png")
	// Filter on the origin: only the shop.
	run(t, tab, "filter", chromedp.Steps(
		chromedp.SendKeys(chromedp.CSS(`input[name="q"]`), "shop"),
		chromedp.Submit(chromedp.CSS(`input[name="q"]`)),
	))
	pollJS(t, tab, "filtered to the shop", `document.querySelectorAll("table.origins tbody tr").length === 1`, 5*time.Second)
	if got := run(t, tab, "filtered", chromedp.Text(chromedp.CSS(`table.origins tbody td`))); got != web.Origin("shop") {
		t.Errorf("filtered to %q, want the shop", got)
	}
}

// Issue 10, in a real browser: the URL lookup of a page robots.txt blocks lists the page that
// links to it, with the link's anchor text, and that page is a lookup in turn.
func TestBrowserURLLookupListsLinkingPages(t *testing.T) {
	st, web := crawlSky(t)
	srv := newSite(t, st, func(o *Options) { o.Now = time.Now })
	tab := newBrowser(t)
	run(t, tab, "explain", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/explain?url="+url.QueryEscape(web.URL("sky", "/vault/charts"))),
		chromedp.WaitVisible(chromedp.CSS(`.answer`)),
	))
	links := run(t, tab, "linking pages", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".linked-from li")).map(li => li.textContent.trim())`))
	if want := []string{web.URL("sky", "/") + " “the nebula charts vault”"}; fmt.Sprint(links) != fmt.Sprint(want) {
		t.Fatalf("linking pages %q, want %q", links, want)
	}
	shoot(t, tab, "url-lookup.png")
	run(t, tab, "follow the linking page", chromedp.Steps(
		chromedp.Click(chromedp.CSS(`.linked-from a`)),
		chromedp.WaitVisible(chromedp.CSS(`.answer`)),
	))
	if got := run(t, tab, "verdict", chromedp.Text(chromedp.CSS(`.answer h2`))); got != "In the index" {
		t.Errorf("the linking page's lookup says %q", got)
	}
}
