package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 32, the page named for all of the query but one word (index/named.go, through
// SearchRespelled): "custom error pages" matches three pages that say the words in their body,
// none named for them; the page on custom error responses, whose title and URL hold "custom
// error", never says "pages", and is shown first, with a note; the others follow in their
// order, and the page keeps its query and Total as typed. The page whose title holds "custom
// error" and whose URL holds neither word is named for nothing, and a query that shows a page
// named for it ("error log format") is answered as typed.
func testSearchNamedAllButOne(t *testing.T, s store.Store) {
	const custom = "http://a.test/custom-error.html"
	pages := append(filler(6),
		rankPage{url: custom, doc: &store.Document{Title: "Custom error responses",
			Text: "The server can send a custom error document instead of its own."}},
		rankPage{url: "http://a.test/misc/faq.html", doc: &store.Document{Title: "Custom error questions",
			Text: "Answers about custom error documents."}},
		rankPage{url: "http://a.test/ssl/compat.html", doc: &store.Document{Title: "Compatibility",
			Text: "Custom error pages of the old module: custom error pages work as before."}},
		rankPage{url: "http://a.test/programs/ab.html", doc: &store.Document{Title: "Benchmarking",
			Text: "The tool counts error pages and custom headers."}},
		rankPage{url: "http://a.test/logs.html", doc: &store.Document{Title: "Error log format",
			Text: "Custom error pages are logged; the error log format names each field."}},
	)
	indexPages(t, s, pages)
	const query = "custom error pages"
	p := searchPage(t, s, query)
	got := resultURLs(p)
	if len(got) != 4 || got[0] != custom {
		t.Errorf("search %q = %q, want %s first, then the three pages that match", query, got, custom)
	}
	const note = `first, the page named for "custom error" (Missing: pages)`
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("search %q: notes %q, want one saying %s", query, p.Notes, note)
	}
	if p.Query != query || p.Total != 3 || len(p.Missing) != 0 {
		t.Errorf("search %q: Query %q, Total %d, Missing %q; want the query as typed, its 3 matches, none missing",
			query, p.Query, p.Total, p.Missing)
	}
	asTyped := searchPage(t, s, "error log format")
	if got := resultURLs(asTyped); len(got) == 0 || got[0] != "http://a.test/logs.html" || len(asTyped.Notes) != 0 {
		t.Errorf("search error log format = %q, notes %q; want logs.html first, as typed", got, asTyped.Notes)
	}
	for _, r := range p.Results {
		if r.URL == "http://a.test/misc/faq.html" {
			t.Errorf("search %q shows %s, whose URL names nothing of the query and whose text lacks pages", query, r.URL)
		}
	}
	if p := searchPage(t, s, query+" -document"); len(p.Results) == 0 || p.Results[0].URL == custom {
		t.Errorf("search %q -document = %q; the page named for the rest says document: want it not shown", query, resultURLs(p))
	}
}
