package storetest

import (
	"slices"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// queryCase is one search of a query-language check: the URLs it must find (any order), and
// whether the page must carry a note (a malformed query read as plain words).
type queryCase struct {
	query string
	want  []string
	note  bool
}

// queryPages are the pages the query-language checks search.
var queryPages = map[string]string{
	"http://docs.test/vacuum":       "vacuum reclaims storage occupied by dead tuples",
	"http://docs.test/analyze":      "analyze collects statistics about tables",
	"http://docs.test/full":         "vacuum full rewrites the table storage",
	"http://blog.docs.test/vacuum":  "a blog post about vacuum and storage",
	"http://other.test/storage":     "storage engines compared",
	"http://docs.test/asynchronous": "asynchronous commit trades durability",
	"http://docs.test/capi":         "PyObject_GetAttr returns an attribute; see also --dry-run and pg_stat_activity",
}

// runQueryCases indexes queryPages (each text its page's title and body) and checks cases.
func runQueryCases(t *testing.T, s store.Store, cases []queryCase) {
	t.Helper()
	var pages []rankPage
	for u, text := range queryPages {
		pages = append(pages, rankPage{url: u, doc: &store.Document{Title: text, Text: text}})
	}
	indexPages(t, s, pages)
	for _, c := range cases {
		p := searchPage(t, s, c.query)
		got := resultURLs(p)
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q found %q, want %q", c.query, got, want)
		}
		if p.Total != len(c.want) || p.TotalIsLowerBound {
			t.Errorf("%q: total %d (lower bound %v), want %d", c.query, p.Total, p.TotalIsLowerBound, len(c.want))
		}
		if c.note != (len(p.Notes) > 0) {
			t.Errorf("%q: notes %q, want a note: %v", c.query, p.Notes, c.note)
		}
	}
}

// Issue 11 item 4, "phrase": the words next to each other, in this order.
func testQueryPhrase(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `"dead tuples"`, want: []string{"http://docs.test/vacuum"}},
		{query: `"tuples dead"`},
		{query: `"vacuum storage"`},
	})
}

// Issue 11 item 4, -exclude: pages with the word, phrase or prefix are left out.
func testQueryExclude(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `vacuum -full`, want: []string{"http://blog.docs.test/vacuum", "http://docs.test/vacuum"}},
		{query: `storage -"dead tuples" -blo*`, want: []string{"http://docs.test/full", "http://other.test/storage"}},
	})
}

// Issue 11 item 4, OR: either; it binds tighter than the implicit AND.
func testQueryOr(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `analyze OR rewrites`, want: []string{"http://docs.test/analyze", "http://docs.test/full"}},
		{query: `storage vacuum OR engines`, want: []string{"http://blog.docs.test/vacuum", "http://docs.test/full", "http://docs.test/vacuum", "http://other.test/storage"}},
		{query: `analyze or rewrites`}, // lower-case "or" is a word
	})
}

// Issue 11 item 4, prefix*: any word starting with it.
func testQueryPrefix(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `async*`, want: []string{"http://docs.test/asynchronous"}},
		{query: `stat*`, want: []string{"http://docs.test/analyze", "http://docs.test/capi"}},
	})
}

// Issue 11 item 4, site:host: only pages on the host or its subdomains.
func testQuerySite(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `storage site:docs.test`, want: []string{"http://blog.docs.test/vacuum", "http://docs.test/full", "http://docs.test/vacuum"}},
		{query: `storage site:blog.docs.test`, want: []string{"http://blog.docs.test/vacuum"}},
		{query: `storage site:other.test site:blog.docs.test`, want: []string{"http://blog.docs.test/vacuum", "http://other.test/storage"}},
		{query: `storage site:ocs.test`},
	})
}

// Issue 11 items 3 and 4: identifiers (snake_case, CamelCase, --flag) are findable whole and
// by their parts.
func testQueryIdentifiers(t *testing.T, s store.Store) {
	capi := []string{"http://docs.test/capi"}
	runQueryCases(t, s, []queryCase{
		{query: `PyObject_GetAttr`, want: capi},
		{query: `getattr`, want: capi},
		{query: `pg_stat_activity`, want: capi},
		{query: `--dry-run`, want: capi},
		{query: `stat_activity`, want: capi},
		{query: `attr`, want: capi}, // a CamelCase part
		{query: `object`, want: capi},
	})
}

// Issue 11 item 4: bad syntax is never an error: the query is read as plain words, and the page
// says so.
func testQueryMalformed(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `"dead tuples`, want: []string{"http://docs.test/vacuum"}, note: true},                                                              // unbalanced quote
		{query: `vacuum - storage`, want: []string{"http://blog.docs.test/vacuum", "http://docs.test/full", "http://docs.test/vacuum"}, note: true}, // lone "-"
		{query: `OR storage`, want: nil, note: true},                                                                                                // OR at the start: "or" becomes a required word
		{query: `-vacuum`, want: []string{"http://blog.docs.test/vacuum", "http://docs.test/full", "http://docs.test/vacuum"}, note: true},          // only an exclusion
		{query: `a* storage`, want: []string{"http://blog.docs.test/vacuum"}, note: true},                                                           // prefix too short: "a" is a word
		{query: `vac*uum`, want: nil, note: true},                                                                                                   // "*" inside a word
		{query: `storage site:`, want: nil, note: true},                                                                                             // site: without a host: "site" is a word
		{query: "dead\x00tuples", want: []string{"http://docs.test/vacuum"}, note: true},                                                            // control character
	})
}

// Issue 11 item 1 (ranking a person agrees with) and item 4: a question typed as plain words
// requires only its subject, not its function words (index/question.go): "what is a walrus"
// finds the page about the walrus that never says "what", and the page notes it. Quoted, the
// words are all required again.
func testQueryQuestion(t *testing.T, s store.Store) {
	runQueryCases(t, s, []queryCase{
		{query: `what is vacuum full`, want: []string{"http://docs.test/full"}, note: true},
		{query: `how do I reclaim storage`, want: []string{"http://docs.test/vacuum"}, note: true},
		{query: `"what" is vacuum`},
		{query: `what is the`}, // function words only: searched as it is
		{query: `vacuum what`, want: nil},
	})
}

// Issue 8 (anchor text apart from the page's text, in the SQLite store) with issue 11's query
// language: an entry is its page's text and the anchor text of the links to it, however a store
// keeps them. A query's words may be split between the two, an exclusion in either leaves the
// entry out, and a link-only entry is found by its anchor text.
func testQueryTextAndAnchors(t *testing.T, s store.Store) {
	const walrus, guide, blocked = "http://docs.test/walrus", "http://docs.test/guide", "http://docs.test/vault"
	indexPages(t, s, []rankPage{
		{url: walrus, doc: &store.Document{Title: "Walrus handbook", Text: "tusks and flippers"}},
		{url: guide, doc: &store.Document{Title: "Guide", Text: "where to start"},
			links: []store.Link{{To: walrus, Anchor: "arctic pinniped"}, {To: blocked, Anchor: "arctic charts"}}},
		{url: blocked},
	})
	for _, c := range []queryCase{
		{query: "walrus pinniped", want: []string{walrus}}, // one word in the text, one in the anchor text
		{query: "pinniped", want: []string{walrus}},        // the anchor text alone
		{query: "arctic", want: []string{walrus, blocked}}, // a document and a link-only entry
		{query: "arctic -tusks", want: []string{blocked}},  // the exclusion is in the text
		{query: "walrus -pinniped", want: nil},             // the exclusion is in the anchor text
		{query: "flippers charts", want: nil},              // no entry holds both (two words: not relaxed, relax.go)
		{query: `"walrus pinniped"`, want: nil},            // a phrase is not split across them
	} {
		got := resultURLs(searchPage(t, s, c.query))
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q found %q, want %q", c.query, got, want)
		}
	}
}
