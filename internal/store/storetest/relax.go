package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 32, "all words but one" (index/relax.go, through SearchRespelled): a query of at least
// index.MinRelaxWords words, each held by some entry, that matches nothing is searched once more
// without the word the most entries hold, and the page says which word is missing. No page
// holds "custom", "error" and "pages"; "pages" is held by four, "error" by three, "custom" by
// two: without "pages" the page on custom error responses is found (without "custom" it would
// be the error pages page). A query of two words, one with a word no entry holds, one whose
// relaxed query matches nothing either, and one whose exclusion then excludes the only match,
// are answered as typed, with nothing and no note.
func testSearchRelaxed(t *testing.T, s store.Store) {
	const custom = "http://a.test/custom-error.html"
	indexPages(t, s, []rankPage{
		{url: custom, doc: &store.Document{Title: "Custom error responses", Text: "The server can send a custom error document instead of its own."}},
		{url: "http://a.test/error-pages.html", doc: &store.Document{Title: "Error pages", Text: "Each error page shows the status code."}},
		{url: "http://a.test/custom-pages.html", doc: &store.Document{Title: "Custom pages", Text: "Build custom start pages for each site."}},
		{url: "http://a.test/manual.html", doc: &store.Document{Title: "Manual pages", Text: "The manual pages list every directive."}},
		{url: "http://a.test/index-pages.html", doc: &store.Document{Title: "Index pages", Text: "Index pages list the files of a directory."}},
		{url: "http://a.test/error-log.html", doc: &store.Document{Title: "Error log", Text: "The error log records what went wrong."}},
	})
	const query = "custom error pages"
	p := searchPage(t, s, query)
	if got := resultURLs(p); len(got) == 0 || got[0] != custom {
		t.Errorf("search %q = %q, want %s first", query, got, custom)
	}
	const note = `showing results for "custom error" (Missing: pages)`
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("search %q: notes %q, want one saying %s", query, p.Notes, note)
	}
	if p.Query != query || !slices.Equal(p.Missing, []string{"pages"}) {
		t.Errorf("search %q: Query %q, Missing %q; want the query as typed, missing pages", query, p.Query, p.Missing)
	}
	for _, q := range []string{"custom log", "custom error zebra", "custom manual log", "custom error -document pages"} {
		p := searchPage(t, s, q)
		if len(p.Results) != 0 || len(p.Notes) != 0 || len(p.Missing) != 0 {
			t.Errorf("search %q = %q, notes %q, missing %q; want nothing, as typed", q, resultURLs(p), p.Notes, p.Missing)
		}
	}
}
