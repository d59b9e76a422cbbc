package crawler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
	"github.com/fractle/mandelbot/internal/trap"
)

// issue 29 ("the defaults must cut the calendar at no more than 2,000 pages"): with the default
// options, the hostile calendar (each month links to the next and the previous month, without
// end) is requested for at most 2,000 pages; the months past the window are recorded out of
// scope with the calendar heuristic in their reason, and never requested.
func TestDefaultsCutTheCalendarTrap(t *testing.T) {
	e := newEnv(t, []testweb.Site{hostile.Site("c", hostile.Options{})})
	e.crawl([]string{"{c}" + hostile.PathCalendarPrefix + "2026/11"}, nil)
	var requested int
	for _, r := range e.web.RequestsTo("c") {
		if strings.HasPrefix(r.Path, hostile.PathCalendarPrefix) {
			requested++
		}
	}
	if requested > 2000 || requested == 0 {
		t.Fatalf("%d calendar pages requested, want between 1 and 2,000", requested)
	}
	var cut int
	for _, u := range e.urls() {
		if u.State == store.StateOutOfScope && strings.HasPrefix(u.Reason, "trap calendar: ") {
			cut++
			if e.requested("{c}" + strings.TrimPrefix(u.URL, strings.TrimSuffix(e.web.URL("c", "/"), "/"))) {
				t.Errorf("%s was requested, yet cut", u.URL)
			}
		}
	}
	if cut == 0 {
		t.Fatal("no URL recorded out of scope by the calendar heuristic")
	}
	t.Logf("%d calendar pages requested, %d cut", requested, cut)
}

// docsSite is a documentation site: an index, 8 chapters, 8 sections each and 7 pages per
// section (521 pages, four levels deep); every page links to its parent, its children, the
// index and the next page in reading order, as such sites do.
func docsSite(key string) testweb.Site {
	var pages []testweb.Page
	var order []string
	var walk func(path string, depth int) []string
	widths := []int{8, 8, 7}
	walk = func(path string, depth int) []string {
		order = append(order, path)
		var kids []string
		if depth < len(widths) {
			for i := range widths[depth] {
				kids = append(kids, fmt.Sprintf("%s%d/", path, i+1))
			}
		}
		pages = append(pages, testweb.Page{Path: path, Title: "Docs " + path, Text: "Reference for " + path, Links: append([]string{"/docs/"}, kids...)})
		for _, k := range kids {
			walk(k, depth+1)
		}
		return kids
	}
	walk("/docs/", 0)
	byPath := map[string]int{}
	for i, p := range pages {
		byPath[p.Path] = i
	}
	for i := 0; i+1 < len(order); i++ {
		p := &pages[byPath[order[i]]]
		p.Links = append(p.Links, order[i+1])
	}
	return testweb.Site{Key: key, Pages: pages}
}

// archiveSite is an archive of n pages where each page links only to the next: the deepest
// legitimate shape (depth n-1).
func archiveSite(key string, n int) testweb.Site {
	s := testweb.Site{Key: key}
	for i := range n {
		p := testweb.Page{Path: fmt.Sprintf("/archive/%d", i), Title: fmt.Sprintf("Archive page %d", i)}
		if i+1 < n {
			p.Links = []string{fmt.Sprintf("/archive/%d", i+1)}
		}
		s.Pages = append(s.Pages, p)
	}
	return s
}

// issue 29 ("they must still crawl, in full: a documentation site ... a 1,000-page archive where
// each page links only to the next"): with the default trap defences, both are fetched to the
// last page and nothing of them is cut.
func TestDefaultsCrawlDeepLegitimateSitesInFull(t *testing.T) {
	docs := docsSite("docs")
	e := newEnv(t, []testweb.Site{docs, archiveSite("arch", 1000)})
	e.crawl([]string{"{docs}/docs/", "{arch}/archive/0"}, nil)
	fetched := map[string]int{}
	for _, u := range e.urls() {
		if u.State != store.StateFetched {
			t.Errorf("%s: %v (%s), want fetched", u.URL, u.State, u.Reason)
			continue
		}
		if strings.Contains(u.URL, "/archive/") {
			fetched["arch"]++
		} else {
			fetched["docs"]++
		}
	}
	if fetched["docs"] != len(docs.Pages) || fetched["arch"] != 1000 {
		t.Fatalf("fetched %v, want %d docs pages and 1000 archive pages", fetched, len(docs.Pages))
	}
}

// issue 29 ("a per-origin page budget ... remembered across resumed runs"): a crawl stopped
// after 3 pages and resumed with a budget of 5 requests 2 more pages of the origin, not 5: the
// budget counts what the store already knows.
func TestPageBudgetSpansResumedRuns(t *testing.T) {
	e := newEnv(t, []testweb.Site{archiveSite("arch", 20)})
	e.crawl([]string{"{arch}/archive/0"}, func(o *Options) { o.MaxPages = 3 })
	e.crawl(nil, func(o *Options) { o.Frontier.MaxPagesPerOrigin = 5 })
	var pages int
	for _, r := range e.web.RequestsTo("arch") {
		if strings.HasPrefix(r.Path, "/archive/") {
			pages++
		}
	}
	if pages != 5 {
		t.Fatalf("%d pages requested over both runs, want 5 (the budget)", pages)
	}
	if u := e.urls()[e.web.URL("arch", "/archive/5")]; u.State != store.StateOutOfScope || !strings.HasPrefix(u.Reason, "trap page-budget: ") {
		t.Fatalf("/archive/5: %v (%s), want out of scope by the page budget", u.State, u.Reason)
	}
}

// The defaults are on in the crawler's options (issue 29): zero means the trap package's
// defaults, negative turns each defence off.
func TestTrapDefaultsOnUnlessTurnedOff(t *testing.T) {
	o := Options{}.withDefaults()
	if o.CalendarYears != trap.DefaultCalendarYears || o.Frontier.MaxPagesPerOrigin != trap.DefaultPageBudget {
		t.Fatalf("defaults: calendar %d, budget %d", o.CalendarYears, o.Frontier.MaxPagesPerOrigin)
	}
	o = Options{CalendarYears: -1, Frontier: frontierOff()}.withDefaults()
	if o.CalendarYears > 0 || o.Frontier.MaxPagesPerOrigin > 0 {
		t.Fatalf("turned off: calendar %d, budget %d", o.CalendarYears, o.Frontier.MaxPagesPerOrigin)
	}
}

func frontierOff() frontier.Options { return frontier.Options{MaxPagesPerOrigin: -1} }
