package index

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// namedSite is a store of search results for the tests of named.go: pages per query text,
// each result's TitleURLFactor as Rerank would set it, and a record of the queries searched.
type namedSite struct {
	pages    map[string][]Result
	searched []string
}

func (s *namedSite) search(_ context.Context, q Query) (Page, error) {
	s.searched = append(s.searched, q.Text)
	rs := slices.Clone(s.pages[q.Text])
	limit := cmpOr(q.Limit, DefaultLimit)
	return Page{Query: q.Text, Terms: Parse(q.Text).Terms(), Total: len(rs), Limit: limit, Offset: q.Offset,
		Results: rs[:min(len(rs), limit)]}, nil
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// result is a fetched result at url, boosted by the title-and-URL rule when named.
func result(url string, named bool) Result {
	r := Result{URL: url, TitleURLFactor: 1}
	if named {
		r.TitleURLFactor = TitleURLBoost
	}
	return r
}

// customErrorSite is issue 32's miss in the Apache httpd manual: "custom error pages" matches
// pages that say all three words, none named for them; the page on custom error responses
// (custom-error.html) never says "pages".
func customErrorSite() (*namedSite, *fakeVocab) {
	s := &namedSite{pages: map[string][]Result{
		"custom error pages": {result("http://h.test/ssl/ssl_compat.html", false), result("http://h.test/programs/ab.html", false),
			result("http://h.test/env.html", false)},
		"custom error": {result("http://h.test/mod/core.html", false), result("http://h.test/custom-error.html", true),
			result("http://h.test/mod/mod_include.html", false)},
		"error pages":  {result("http://h.test/logs.html", false)},
		"custom pages": {result("http://h.test/howto/ssi.html", false)},
	}}
	v := relaxVocab()
	v.titled = []TitledEntry{
		{URL: "http://h.test/custom-error.html", Title: "Custom Error Responses - Apache HTTP Server"},
		{URL: "http://h.test/misc/faq.html", Title: "Error messages: questions"}, // title, not URL
		{URL: "http://h.test/logs.html", Title: "Log Files"},
	}
	return s, v
}

// Issue 32, the page named for all of the query but one word (named.go): no result of the first
// page of "custom error pages" is named for the query, and the page whose title and URL hold
// "custom error" is shown first, from one search without "pages"; the rest keep their order, the
// limit holds, and the page keeps the query, its Total and Terms as typed, with a note.
func TestNamedAllButOne(t *testing.T) {
	s, v := customErrorSite()
	p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages", Limit: 3}, v, s.search)
	want := []string{"http://h.test/custom-error.html", "http://h.test/ssl/ssl_compat.html", "http://h.test/programs/ab.html"}
	if err != nil || !slices.Equal(urlsOf(p.Results), want) {
		t.Fatalf("search custom error pages = %q, %v; want %q", urlsOf(p.Results), err, want)
	}
	if p.Query != "custom error pages" || p.Total != 3 || !slices.Equal(p.Terms, []string{"custom", "error", "pages"}) ||
		len(p.Missing) != 0 || !slices.Equal(s.searched, []string{"custom error pages", "custom error"}) {
		t.Errorf("page %+v after %q: want the query as typed, its Total and Terms, no Missing, two searches", p, s.searched)
	}
	if note := `first, the page named for "custom error" (Missing: pages)`; !slices.ContainsFunc(p.Notes, func(n string) bool {
		return strings.Contains(n, note)
	}) {
		t.Errorf("notes %q, want one saying %s", p.Notes, note)
	}
	// One probe of the titles, for the three words that may be left out.
	wantSets := [][]string{{"error", "pages"}, {"custom", "pages"}, {"custom", "error"}}
	if len(v.probes) != 1 || !slices.EqualFunc(v.probes[0], wantSets, slices.Equal) {
		t.Errorf("Titled asked %q, want once %q", v.probes, wantSets)
	}
}

// A result already on the first page is moved first, not shown twice, nor under another URL
// with the same content (Dedupe's ContentHash).
func TestNamedAllButOneMovesAResult(t *testing.T) {
	s, v := customErrorSite()
	twin := result("http://h.test/custom-error.html?lang=en", false)
	twin.ContentHash = 7
	s.pages["custom error"][1].ContentHash = 7
	s.pages["custom error pages"] = append(s.pages["custom error pages"], result("http://h.test/custom-error.html", false), twin)
	p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, v, s.search)
	want := []string{"http://h.test/custom-error.html", "http://h.test/ssl/ssl_compat.html", "http://h.test/programs/ab.html",
		"http://h.test/env.html"}
	if err != nil || !slices.Equal(urlsOf(p.Results), want) {
		t.Errorf("search custom error pages = %q, %v; want %q", urlsOf(p.Results), err, want)
	}
}

// When several words may be left out, the one the most entries hold is: of "custom error pages
// log", "custom error log" names one page by its title and URL, "custom error pages" another;
// the vocabulary holds "pages" in 4 entries, "log" in 3, and "pages" is left out.
func TestNamedAllButOneLeastInformative(t *testing.T) {
	s, v := customErrorSite()
	s.pages["custom error pages log"] = []Result{result("http://h.test/env.html", false)}
	s.pages["custom error log"] = []Result{result("http://h.test/custom-error-log.html", true)}
	s.pages["custom error pages"] = append(s.pages["custom error pages"], result("http://h.test/custom-error-pages.html", true))
	v.titled = append(v.titled, TitledEntry{URL: "http://h.test/custom-error-log.html", Title: "Custom error log"},
		TitledEntry{URL: "http://h.test/custom-error-pages.html", Title: "Custom error pages"})
	v.entries["log"] = 3
	p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages log"}, v, s.search)
	if err != nil || len(p.Results) == 0 || p.Results[0].URL != "http://h.test/custom-error-log.html" ||
		!slices.Equal(s.searched, []string{"custom error pages log", "custom error log"}) {
		t.Errorf("search custom error pages log = %q, %v after %q; want custom-error-log.html first, without pages",
			urlsOf(p.Results), err, s.searched)
	}
}

// The rule leaves the page as typed, with one search, when the page already shows a result
// named for the query, for a later page, for fewer than MinNamedWords or more than
// MaxNamedWords terms, for OR and prefixes, and when no word may be left out; and, after the
// probe, when no title and URL hold the rest (a title alone is not enough).
func TestNamedAllButOneNotApplied(t *testing.T) {
	for _, c := range []struct {
		q      Query
		probed bool
	}{
		{Query{Text: "custom error pages", Offset: 10}, false},
		{Query{Text: "custom pages"}, false},
		{Query{Text: "custom error pages apache log"}, false},
		{Query{Text: "custom error OR log pages"}, false},
		{Query{Text: "custom error pag*"}, false},
		{Query{Text: `"custom error" "pages"`}, false},
		{Query{Text: `custom error "pages"`}, true},     // a word quoted to require it stays
		{Query{Text: "error messages questions"}, true}, // misc/faq.html's title, but not its URL
		{Query{Text: "questions messages error"}, true},
	} {
		s, v := customErrorSite()
		for _, text := range []string{"custom pages", "custom error pages apache log", "custom error OR log pages", "custom error pag*",
			`"custom error" "pages"`, `custom error "pages"`, "error messages questions", "questions messages error"} {
			s.pages[text] = []Result{result("http://h.test/env.html", false)}
		}
		s.pages["custom error pages"] = s.pages["custom error pages"][:1]
		p, err := SearchRespelled(t.Context(), c.q, v, s.search)
		if err != nil || len(s.searched) != 1 || len(p.Results) != 1 || p.Results[0].URL == "http://h.test/custom-error.html" ||
			len(v.probes) == 1 != c.probed {
			t.Errorf("search %+v = %q, %v after %q, probes %q; want the page as typed, probed: %v",
				c.q, urlsOf(p.Results), err, s.searched, v.probes, c.probed)
		}
	}
	// A result named for the query: by the title-and-URL rule, or by a title that holds every
	// word (its plural folded) though the URL spells none.
	titled := result("http://h.test/howto/cep.html", false)
	titled.Title = "Introduction to Custom Error Page"
	for _, r := range []Result{result("http://h.test/custom-error-pages.html", true), titled} {
		s, v := customErrorSite()
		s.pages["custom error pages"] = append(s.pages["custom error pages"], r)
		if p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, v, s.search); err != nil ||
			len(v.probes) != 0 || len(s.searched) != 1 || len(p.Notes) != 0 {
			t.Errorf("search with %+v shown: probes %q, searched %q, notes %q, %v; want the page as typed alone",
				r, v.probes, s.searched, p.Notes, err)
		}
	}
}

// The search without the word shows no page named for it (the probe's entry is not among its
// results, or not named there): the page as typed, without a note.
func TestNamedAllButOneNoNamedResult(t *testing.T) {
	s, v := customErrorSite()
	s.pages["custom error"] = []Result{result("http://h.test/mod/core.html", false)}
	p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, v, s.search)
	if err != nil || len(s.searched) != 2 || p.Results[0].URL != "http://h.test/ssl/ssl_compat.html" || len(p.Notes) != 0 {
		t.Errorf("search = %q, notes %q, %v after %q; want the page as typed", urlsOf(p.Results), p.Notes, err, s.searched)
	}
}

// A failing probe is an error of the search, wrapped.
func TestNamedAllButOneError(t *testing.T) {
	s, v := customErrorSite()
	v.err = errors.New("broken")
	if _, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, v, s.search); !errors.Is(err, v.err) {
		t.Errorf("search with a failing vocabulary: %v, want it wrapped", err)
	}
}

func urlsOf(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.URL
	}
	return out
}
