package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fractle/mandelbot/internal/testweb"
)

// longRules is a robots.txt whose rules are long words: a column that breaks words would break
// them (issue 27).
const longRules = "User-agent: Mandelbot\nDisallow: /internationalisation-department/quarterly-reports-archive/\n" +
	"Allow: /internationalisation-department/quarterly-reports-archive/public-summaries.html\n" +
	"Disallow: /*.unnecessarilylongfileextension$\n"

// longURLs are checked against longRules: one decided by each rule.
const longURLs = "https://www.example-of-a-rather-long-host-name.test/internationalisation-department/quarterly-reports-archive/2025-q3.pdf\n" +
	"/internationalisation-department/quarterly-reports-archive/public-summaries.html\n/x.unnecessarilylongfileextension\n"

// testerLayout is what the browser measured on a tester page after Check.
type testerLayout struct {
	Search        string // location.search: the check's inputs are in the address
	FirstRowBelow float64
	ViewHeight    float64
	VerdictsFirst bool // the verdict table comes before the form in the document
	Broken        []string
	PageWidth     float64
	ViewWidth     float64
	Verdicts      []string
}

// measureTester reads testerLayout from the page. Broken lists each word (a run of letters,
// digits and _; a break after a hyphen or a slash is between words) of a rule or URL cell that
// the browser laid out on more than one line.
const measureTester = `(() => {
	const words = [];
	const codes = [];
	for (const table of document.querySelectorAll("table.verdicts, table.rules")) {
		const heads = Array.from(table.querySelectorAll("thead th")).map(th => th.textContent.trim());
		for (const i of [heads.indexOf("Rule"), heads.indexOf("URL")].filter(i => i >= 0)) {
			for (const tr of table.querySelectorAll("tbody tr")) codes.push(...tr.cells[i].querySelectorAll("code"));
		}
	}
	for (const code of codes) {
		const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
		for (let text = walk.nextNode(); text; text = walk.nextNode()) {
			for (const m of text.data.matchAll(/[A-Za-z0-9_]+/g)) {
				const r = document.createRange();
				r.setStart(text, m.index);
				r.setEnd(text, m.index + m[0].length);
				const lines = new Set(Array.from(r.getClientRects()).map(b => Math.round(b.top)));
				if (lines.size > 1) words.push(m[0]);
			}
		}
	}
	const table = document.querySelector("table.verdicts"), form = document.querySelector("form.tester");
	return {
		Search: location.search,
		FirstRowBelow: document.querySelector("table.verdicts tbody tr").getBoundingClientRect().bottom,
		ViewHeight: innerHeight,
		VerdictsFirst: !!(table.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING),
		Broken: words,
		PageWidth: document.documentElement.scrollWidth,
		ViewWidth: document.documentElement.clientWidth,
		Verdicts: Array.from(document.querySelectorAll(".verdicts tbody tr .verdict")).map(v => v.textContent),
	};
})()`

// Issue 27, part 5, in a real browser: after Check, the address bar holds the check (so it can be
// bookmarked and shared), the first verdict is above the fold on a laptop and a phone screen, the
// verdicts come before the form that echoes the input, and no rule is broken inside a word at
// any width: the rule stays whole and its table scrolls, the page itself never scrolls sideways.
func TestBrowserTesterVerdictsFirstAndWhole(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	tab := newBrowser(t)
	for _, vp := range []struct {
		name          string
		width, height int64
	}{{"laptop", 1280, 720}, {"tablet", 800, 700}, {"phone", 390, 740}} {
		run(t, tab, "tester at "+vp.name, chromedp.Steps(
			chromedp.EmulateViewport(vp.width, vp.height),
			chromedp.Navigate(srv.URL+"/robots"),
			chromedp.WaitVisible(chromedp.CSS(`#robots`)),
			chromedp.SetValue(chromedp.CSS(`#robots`), longRules),
			chromedp.SetValue(chromedp.CSS(`#urls`), longURLs),
			chromedp.Click(chromedp.CSS(`form.tester button`)),
			chromedp.WaitVisible(chromedp.CSS(`.report`)),
		))
		got := run(t, tab, "measure", chromedp.Evaluate[testerLayout](measureTester))
		if want := []string{"DISALLOWED", "ALLOWED", "DISALLOWED"}; fmt.Sprint(got.Verdicts) != fmt.Sprint(want) {
			t.Errorf("%s: verdicts %v, want %v", vp.name, got.Verdicts, want)
		}
		q, err := url.ParseQuery(strings.TrimPrefix(got.Search, "?"))
		if err != nil || q.Get("robots") != longRules || q.Get("urls") != longURLs {
			t.Errorf("%s: the address %q does not hold the check", vp.name, got.Search)
		}
		if !got.VerdictsFirst || got.FirstRowBelow > got.ViewHeight {
			t.Errorf("%s: verdicts first %v, first verdict's bottom at %.0f px of a %.0f px window: want it above the fold",
				vp.name, got.VerdictsFirst, got.FirstRowBelow, got.ViewHeight)
		}
		if len(got.Broken) > 0 {
			t.Errorf("%s: rule words broken across lines: %q", vp.name, got.Broken)
		}
		if got.PageWidth > got.ViewWidth {
			t.Errorf("%s: the page is %.0f px wide in a %.0f px window: only the tables may scroll sideways", vp.name, got.PageWidth, got.ViewWidth)
		}
		shoot(t, tab, "robots-tester-"+vp.name+".png")

		// The address, opened afresh (as a bookmark or a shared link), gives the same verdicts.
		run(t, tab, "reopen the link", chromedp.Steps(
			chromedp.Navigate(srv.URL+"/dashboard"),
			chromedp.Navigate(srv.URL+"/robots"+got.Search),
			chromedp.WaitVisible(chromedp.CSS(`.report`)),
		))
		again := run(t, tab, "measure again", chromedp.Evaluate[testerLayout](measureTester))
		if fmt.Sprint(again.Verdicts) != fmt.Sprint(got.Verdicts) {
			t.Errorf("%s: the link gives %v, the check gave %v", vp.name, again.Verdicts, got.Verdicts)
		}
		if href := run(t, tab, "share link", chromedp.Evaluate[string](`document.querySelector("#share").href`)); href != srv.URL+"/robots"+got.Search {
			t.Errorf("%s: the page's link %q is not its address", vp.name, href)
		}
	}
}

// Issue 27, part 5, in a real browser: the tester fetches a robots.txt by its URL (here a site
// pinned to loopback, as `serve --resolve` allows) and says where it came from and what its
// answer means; a loopback address the server was not allowed is refused, with the reason.
func TestBrowserTesterFetchesByURL(t *testing.T) {
	web, resolve := robotsWeb(t, []testweb.Site{robotsSite("shop", testweb.RobotsTxt("User-agent: *\nDisallow: /private\n"))})
	srv := newSite(t, newStore(t), func(o *Options) { o.TesterFetch.Resolve = resolve })
	tab := newBrowser(t)
	run(t, tab, "fetch by URL", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/robots"),
		chromedp.WaitVisible(chromedp.CSS(`#robots_url`)),
		chromedp.SendKeys(chromedp.CSS(`#robots_url`), web.Origin("shop")),
		chromedp.SendKeys(chromedp.CSS(`#urls`), "/private/staff\n/bread\n"),
		chromedp.Click(chromedp.CSS(`form.tester button`)),
		chromedp.WaitVisible(chromedp.CSS(`.report`)),
	))
	type page struct {
		Decision string
		Verdicts []string
	}
	got := run(t, tab, "report", chromedp.Evaluate[page](`({Decision: document.querySelector("#decision").textContent,
		Verdicts: Array.from(document.querySelectorAll(".verdicts tbody tr .verdict")).map(v => v.textContent)})`))
	if want := web.URL("shop", "/robots.txt") + ": robots.txt answered 200: its rules apply."; got.Decision != want {
		t.Errorf("decision %q, want %q", got.Decision, want)
	}
	if fmt.Sprint(got.Verdicts) != "[DISALLOWED ALLOWED]" {
		t.Errorf("verdicts %v", got.Verdicts)
	}
	shoot(t, tab, "robots-tester-fetched.png")

	run(t, tab, "loopback refused", chromedp.Steps(
		chromedp.Navigate(srv.URL+"/robots?"+url.Values{"robots_url": {"http://" + web.Addr("shop") + "/robots.txt"}, "urls": {"/x"}}.Encode()),
		chromedp.WaitVisible(chromedp.CSS(`.problem`)),
	))
	if msg := run(t, tab, "problem", chromedp.Text(chromedp.CSS(`.problem`))); !strings.Contains(msg, "loopback or private") {
		t.Errorf("problem %q", msg)
	}
	if n := web.Count("shop", "/robots.txt"); n != 1 {
		t.Errorf("%d robots.txt requests, want 1 (the refused address is never contacted)", n)
	}
}

// Issue 27, part 5, in a real browser: /metrics shows the Go runtime and process metrics beside
// the store's gauges.
func TestBrowserMetrics(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	tab := newBrowser(t)
	run(t, tab, "open /metrics", chromedp.Navigate(srv.URL+"/metrics"))
	body := run(t, tab, "metrics text", chromedp.Text(chromedp.CSS(`body`)))
	for _, want := range append([]string{"mandelbot_urls{state=\"fetched\"} 4"}, runtimeFamilies...) {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics in the browser lacks %s", want)
		}
	}
}
