package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 32, "queries with misspellings that find nothing" (index/spell.go, SearchRespelled): a
// query that matches nothing because a word is misspelt is searched with the word corrected
// from the index's own vocabulary, and the page says so. "virtaul hosts" finds the page on
// virtual hosts (three pages say "virtual", one "virtaal": as close, and the rarer); the stems
// the index holds are read back as words ("authentification": the index holds
// "authentication" as a stem; "revers": the stem of "reverse"); a query that finds something,
// or whose words are each held ("virtual zebra" matches no page), is searched as typed, with
// no note.
func testSearchRespelled(t *testing.T, s store.Store) {
	const vhosts, proxy, auth = "http://a.test/vhosts.html", "http://a.test/proxy.html", "http://a.test/auth.html"
	indexPages(t, s, []rankPage{
		{url: vhosts, doc: &store.Document{Title: "Virtual hosts", Text: "Serving several sites from one server: each virtual host has a name."}},
		{url: proxy, doc: &store.Document{Title: "Reverse proxy guide", Text: "A reverse proxy forwards requests to a backend server."}},
		{url: auth, doc: &store.Document{Title: "Authentication", Text: "Authentication checks who a visitor is, with a password."}},
		{url: "http://a.test/memory.html", doc: &store.Document{Title: "Memory", Text: "Virtual memory of the server processes."}},
		{url: "http://a.test/machines.html", doc: &store.Document{Title: "Machines", Text: "A virtual machine runs the server."}},
		{url: "http://a.test/afrikaans.html", doc: &store.Document{Title: "Virtaal", Text: "Virtaal, a translation tool, and its hosts."}},
		{url: "http://a.test/zebra.html", doc: &store.Document{Title: "Zebras", Text: "A zebra crossing."}},
	})
	for _, c := range []struct{ query, want, searched string }{
		{"virtaul hosts", vhosts, "virtual hosts"},
		{"authentification", auth, "authentication"},
		{"revers proxy", proxy, "reverse proxy"},
	} {
		p := searchPage(t, s, c.query)
		if got := resultURLs(p); len(got) == 0 || got[0] != c.want {
			t.Errorf("search %q = %q, want %s first", c.query, got, c.want)
		}
		note := `showing results for "` + c.searched + `"`
		if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, note) }) {
			t.Errorf("search %q: notes %q, want one saying %s", c.query, p.Notes, note)
		}
		if p.Query != c.query {
			t.Errorf("search %q: Query %q, want the query as typed", c.query, p.Query)
		}
	}
	for _, q := range []string{"virtual hosts", "virtual zebra"} {
		p := searchPage(t, s, q)
		if slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "showing results for") }) {
			t.Errorf("search %q: notes %q, want the query searched as typed", q, p.Notes)
		}
		if want := map[string]int{"virtual hosts": 1, "virtual zebra": 0}[q]; len(p.Results) != want {
			t.Errorf("search %q = %q, want %d result(s)", q, resultURLs(p), want)
		}
	}
}
