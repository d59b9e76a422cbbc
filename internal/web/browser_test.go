package web

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// envRequireAll makes a missing browser a failure instead of a skip (CI installs Chromium).
const envRequireAll = "MANDELBOT_REQUIRE_ALL"

// envScreenshots names a directory to keep the browser test's screenshots in; by default they
// go to the test's temporary directory.
const envScreenshots = "MANDELBOT_SCREENSHOTS"

// browserBudget bounds the whole browser test, start-up included.
const browserBudget = 20 * time.Second

// chromium finds Debian's chromium, or skips (fails under MANDELBOT_REQUIRE_ALL=1).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(envRequireAll) == "1" {
		t.Fatal("chromium is not installed, and " + envRequireAll + "=1")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// newBrowser starts a headless Chromium that may run as root and talks to nothing but the
// pages it is sent to, and returns a tab's context bounded by browserBudget.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-pings", true),
	)
	ctx, cancel := context.WithTimeout(t.Context(), browserBudget)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	return tab
}

// run runs one action and fails the test on an error.
func run[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// A real browser over a real crawl: type a query, submit, page to the results that are link-only
// and hostile. The hostile title shows as text, and no script it carries ever runs (issue 4;
// seed 001: link-only entries are marked as not crawled).
func TestBrowserSearch(t *testing.T) {
	st, web := crawlSky(t)
	srv := newSite(t, st, func(o *Options) { o.Now = time.Now })
	tab := newBrowser(t)

	run(t, tab, "open the search page", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="q"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="q"]`), "nebula"),
		chromedp.Click(chromedp.CSS(`form.search button`)),
		chromedp.WaitVisible(chromedp.CSS(`#count`)),
	))
	if got := run(t, tab, "count", chromedp.Text(chromedp.CSS(`#count`))); got != "Results 1–10 of 14" {
		t.Fatalf("page 1 count %q", got)
	}
	// The stylesheet loaded under the Content-Security-Policy: matched words are highlighted.
	if bg := run(t, tab, "mark style", chromedp.Evaluate[string](`getComputedStyle(document.querySelector("mark")).backgroundColor`)); bg != "rgb(255, 241, 168)" {
		t.Errorf("<mark> background %q: the stylesheet did not apply", bg)
	}
	shoot(t, tab, "search-page-1.png")

	run(t, tab, "next page", chromedp.Steps(
		chromedp.Click(chromedp.CSS(`a[rel="next"]`)),
		chromedp.WaitVisible(chromedp.CSS(`a[rel="prev"]`)),
	))
	if got := run(t, tab, "count", chromedp.Text(chromedp.CSS(`#count`))); got != "Results 11–14 of 14" {
		t.Fatalf("page 2 count %q", got)
	}
	type result struct {
		Title, URL, Badge, Href string
	}
	results := run(t, tab, "results", chromedp.Evaluate[[]result](`Array.from(document.querySelectorAll(".result")).map(r => ({
		Title: r.querySelector("h2 a, h2 .nolink").textContent,
		URL: r.querySelector(".url").textContent,
		Badge: (r.querySelector(".badge") || {textContent: ""}).textContent,
		Href: (r.querySelector("h2 a") || {href: ""}).href,
	}))`))
	byURL := map[string]result{}
	for _, r := range results {
		byURL[r.URL] = r
	}
	if r := byURL[web.URL("sky", "/vault/charts")]; r.Badge != "not crawled · blocked by robots.txt" {
		t.Errorf("the blocked URL's result %+v: want the link-only marker", r)
	}
	if r := byURL[web.URL("sky", "/oddities")]; r.Title != hostileTitle || r.Href != web.URL("sky", "/oddities") {
		t.Errorf("the hostile page's result %+v: want its title as text", r)
	}
	type verdict struct {
		Pwned   string
		Title   string
		Scripts int
	}
	v := run(t, tab, "injection check", chromedp.Evaluate[verdict](`({Pwned: typeof window.pwned, Title: document.title, Scripts: document.scripts.length})`))
	if v.Pwned != "undefined" || v.Scripts != 0 || !strings.HasPrefix(v.Title, "nebula") {
		t.Errorf("after rendering the hostile page's title: %+v; no injected script may run or exist", v)
	}
	shoot(t, tab, "search-page-2.png")
}

// shoot saves a full-page screenshot, for people to look at.
func shoot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	png := run(t, tab, "screenshot", chromedp.FullScreenshot(100))
	dir := os.Getenv(envScreenshots)
	if dir == "" {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// The other pages in a real browser: the tester form posts (multipart, same-origin, past the
// cross-origin protection and the CSP's form-action) and shows its verdicts; the dashboard and
// the explain page render with their stylesheet.
func TestBrowserTesterDashboardExplain(t *testing.T) {
	st, web := crawlSky(t)
	srv := newSite(t, st, func(o *Options) { o.Now = time.Now })
	tab := newBrowser(t)

	run(t, tab, "tester", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/robots"),
		chromedp.WaitVisible(chromedp.CSS(`#robots`)),
		// seed 000 "precedence": /doc is shorter than /*.pdf and has no effect.
		chromedp.SendKeys(chromedp.CSS(`#robots`), "User-agent: Mandelbot\nDisallow: /*.pdf\nAllow: /files\nAllow: /doc\nDissallow: /typo\n"),
		chromedp.SendKeys(chromedp.CSS(`#urls`), "https://a.test/doc.pdf\n/files.pdf\n"),
		chromedp.Click(chromedp.CSS(`form.tester button`)),
		chromedp.WaitVisible(chromedp.CSS(`.report`)),
	))
	type row struct{ Verdict, Rule string }
	rows := run(t, tab, "verdicts", chromedp.Evaluate[[]row](`Array.from(document.querySelectorAll(".verdicts tbody tr")).map(r => ({
		Verdict: r.cells[0].textContent.trim(), Rule: r.cells[3].textContent.trim()}))`))
	if want := []row{{"DISALLOWED", "Disallow: /*.pdf"}, {"ALLOWED", "Allow: /files"}}; fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("verdicts %v, want %v", rows, want)
	}
	shoot(t, tab, "robots-tester.png")

	run(t, tab, "dashboard", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/dashboard"),
		chromedp.WaitVisible(chromedp.CSS(`table.origins`)),
	))
	if got := run(t, tab, "origin", chromedp.Text(chromedp.CSS(`table.origins tbody td`))); got != web.Origin("sky") {
		t.Errorf("first origin %q, want %q", got, web.Origin("sky"))
	}
	shoot(t, tab, "dashboard.png")

	run(t, tab, "explain", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/explain?url="+url.QueryEscape(web.URL("sky", "/vault/charts"))),
		chromedp.WaitVisible(chromedp.CSS(`.answer`)),
	))
	if got := run(t, tab, "badge", chromedp.Text(chromedp.CSS(`.answer .badge`))); got != "not crawled · blocked by robots.txt" {
		t.Errorf("explain badge %q", got)
	}
	shoot(t, tab, "explain.png")
}
