package index

import (
	"fmt"
	"slices"
	"testing"
)

// Issue 11, index/ranking.go: among equal text scores, the page whose title is the query wins,
// then the page more pages link to; a much better text score still wins over both.
func TestRerank(t *testing.T) {
	rs := []Result{
		{URL: "mentions", Title: "12.10. psql Support", Score: 7.0, Inlinks: 5},
		{URL: "linked", Title: "Accessing a Database", Score: 6.9, Inlinks: 60},
		{URL: "title", Title: "psql", Score: 6.0, Inlinks: 5},
		{URL: "numbered", Title: "25.1. PSQL", Score: 5.9, Inlinks: 5},
		{URL: "strong", Title: "Everything", Score: 20, Inlinks: 0},
	}
	Rerank(rs, []string{"psql"})
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
	}
	if want := []string{"strong", "title", "numbered", "linked", "mentions"}; !slices.Equal(got, want) {
		t.Errorf("Rerank order = %q, want %q", got, want)
	}
}

func TestTitleIsQuery(t *testing.T) {
	for title, want := range map[string]bool{
		"VACUUM": true, "20.10. Vacuum": true, "vacuum full": false, "": false, "Chapter 9. vacuum": false,
	} {
		if got := titleIsQuery(title, []string{"vacuum"}); got != want {
			t.Errorf("titleIsQuery(%q) = %v, want %v", title, got, want)
		}
	}
	if !titleIsQuery("Materialized Views", []string{"views", "materialized"}) {
		t.Error("word order should not matter")
	}
}

// Issue 11 item 1, anchor votes: a link votes when its anchor text holds every query word (any
// order, any case, plurals folded); others do not.
func TestAnchorVotes(t *testing.T) {
	anchors := map[string]int{
		"wal_level":                      5,
		"20.5.1. Settings":               3,
		"Foreign Keys":                   2,
		"Remove Foreign Key Constraints": 1,
		"":                               4,
	}
	for q, want := range map[string]int{
		"wal_level":   5,
		"foreign key": 3,
		"key foreign": 3,
		"settings":    3,
		"setting":     3,
		"wal level x": 0,
		"":            0,
	} {
		if got := AnchorVotes(anchors, Query{Text: q}.Parse().Terms()); got != want {
			t.Errorf("AnchorVotes(%q) = %d, want %d", q, got, want)
		}
	}
}

func TestSStem(t *testing.T) {
	for in, want := range map[string]string{
		"keys": "key", "queries": "query", "indexes": "indexe", "status": "status", "class": "class",
		"key": "key", "goes": "goe", "trees": "tree", "types": "type",
	} {
		if got := sStem(in); got != want {
			t.Errorf("sStem(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 32 part 2: a page whose title holds the query's words, and its URL path some of them, outranks every
// page where they are only in the body, however often (the boost is at least a margin over the
// best of those); it keeps its place among pages that hold them in the title alone.
func TestRerankTitleAndURL(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/mod/core.html", Title: "core", Score: 90},                                          // body only, very often
		{URL: "http://a.test/howto/htaccess.html", Title: "Apache Tutorial: .htaccess files", Score: 10},        // title and URL
		{URL: "http://a.test/rewrite/htaccess.html", Title: "Per-directory Rewrites", Score: 12},                // URL only
		{URL: "http://a.test/faq.html", Title: "A .htaccess tutorial and more", Score: 200},                     // title only, strong
		{URL: "http://htaccess.test/tutorial", Title: "htaccess tutorial", Score: 9},                            // host is not the path
		{URL: "http://a.test/Tutorials/HTAccess_Files.html", Title: "HTAccess Tutorials", Score: 1, Inlinks: 0}, // case, plurals, parts
	}
	Rerank(rs, []string{"htaccess", "tutorial"})
	pos := map[string]int{}
	for i, r := range rs {
		pos[r.URL] = i
	}
	for _, boosted := range []string{"http://a.test/howto/htaccess.html", "http://a.test/Tutorials/HTAccess_Files.html"} {
		for _, below := range []string{"http://a.test/mod/core.html", "http://a.test/rewrite/htaccess.html"} {
			if pos[boosted] > pos[below] {
				t.Errorf("%s ranks below %s: %v", boosted, below, rs)
			}
		}
		if r := rs[pos[boosted]]; r.TitleURLFactor < TitleURLBoost {
			t.Errorf("%s: TitleURLFactor %v, want at least %v", boosted, r.TitleURLFactor, TitleURLBoost)
		}
	}
	if pos["http://a.test/faq.html"] != 0 {
		t.Errorf("the strong title-only page lost its place: %v", rs)
	}
	for _, u := range []string{"http://a.test/mod/core.html", "http://a.test/rewrite/htaccess.html", "http://a.test/faq.html", "http://htaccess.test/"} {
		if f := rs[pos[u]].TitleURLFactor; f != 1 {
			t.Errorf("%s: TitleURLFactor %v, want 1 (the rule does not apply)", u, f)
		}
	}
	// The margin over the best body-only page, when the plain boost is not enough.
	if got, want := rs[pos["http://a.test/howto/htaccess.html"]].Score, 90*(1+TitleURLMargin); got < want {
		t.Errorf("boosted score %v, want at least %v", got, want)
	}
}

func TestTitleAndURLHold(t *testing.T) {
	for _, c := range []struct {
		title, url string
		terms      []string
		want       bool
	}{
		{"RewriteRule Flags", "http://a.test/rewrite/flags.html", []string{"rewrite", "flags"}, true},
		{"mod_rewrite", "http://a.test/mod/mod_rewrite.html", []string{"mod_rewrite"}, true},
		{"Log Files", "http://a.test/logs.html", []string{"log", "files"}, true}, // the URL holds one word
		{"Log Files", "http://a.test/logs.html", []string{"logs", "rotation"}, false},
		{"Per-directory Rewrites", "http://a.test/rewrite/htaccess.html", []string{"htaccess"}, false},
		{"Caching Guide", "http://a.test/caching.html", []string{"caching", "guide"}, true},
		{"Caching Guide", "http://a.test/guide/", []string{"caching"}, false},
		{"", "http://a.test/x.html", []string{"x"}, false},
		{"x", "http://a.test/x.html", nil, false},
		{"Vacuum", "http://vacuum.test", []string{"vacuum"}, false},              // no path
		{"Vacuum", "http://a.test/x?vacuum=1#vacuum", []string{"vacuum"}, false}, // query and fragment are not the path
		{"Vacuum", "http://a.test/VACUUM.html", []string{"vacuum"}, true},
		{"HTTPServer setup", "http://a.test/server/", []string{"http", "server"}, true},
	} {
		forms := termFormsOf(c.terms)
		if got := titleAndURLHold(forms.held(c.title), forms.held(urlPath(c.url)), forms.all()); got != c.want {
			t.Errorf("titleAndURLHold(%q, %q, %q) = %v, want %v", c.title, c.url, c.terms, got, c.want)
		}
	}
}

// Issue 32 part 3: a link-only entry outside the crawl's scope ranks below every crawled page
// that matches, unless its anchor text is the best match (it holds every query word and no
// crawled page's title does); a robots-blocked link-only entry keeps today's place (seed 001),
// and so does one in scope not crawled yet.
func TestRerankOutOfScopeBelowCrawled(t *testing.T) {
	rs := []Result{
		{URL: "http://src.test/a.c", Title: "a.c [not crawled]", LinkOnly: true, State: "out_of_scope", Score: 50},
		{URL: "http://src.test/b.c", Title: "b.c", LinkOnly: true, State: "out_of_scope", Score: 40},
		{URL: "http://a.test/weak", Title: "Weak", Score: 2},
		{URL: "http://a.test/strong", Title: "Strong", Score: 30},
		{URL: "http://a.test/blocked", Title: "blocked", LinkOnly: true, State: "robots_disallowed", Score: 45},
		{URL: "http://a.test/later", Title: "later", LinkOnly: true, State: "queued", Score: 35},
	}
	Rerank(rs, []string{"parser"})
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
	}
	want := []string{"http://a.test/blocked", "http://a.test/later", "http://a.test/strong", "http://a.test/weak",
		"http://src.test/a.c", "http://src.test/b.c"}
	if !slices.Equal(got, want) {
		t.Errorf("Rerank order = %q, want %q", got, want)
	}

	// The anchor text names the query, and no crawled page's title does: its place is kept.
	rs = []Result{
		{URL: "http://src.test/parser.c", Title: "The parser source", LinkOnly: true, State: "out_of_scope", Score: 50},
		{URL: "http://a.test/weak", Title: "Weak", Score: 2},
	}
	Rerank(rs, []string{"parser"})
	if rs[0].URL != "http://src.test/parser.c" {
		t.Errorf("the best-matching anchor text lost its place: %v", rs)
	}
	// A crawled page's title names it as well: the crawled page wins.
	rs = []Result{
		{URL: "http://src.test/parser.c", Title: "The parser source", LinkOnly: true, State: "out_of_scope", Score: 50},
		{URL: "http://a.test/parsing", Title: "Parser", Score: 2},
	}
	Rerank(rs, []string{"parser"})
	if rs[0].URL != "http://a.test/parsing" {
		t.Errorf("an out-of-scope entry beat a crawled page with the query in its title: %v", rs)
	}
}

// BenchmarkRerank is the work Rerank adds to a search (issue 32: its rules must not slow search): RerankDepth entries with titles and URLs
// like a documentation site's.
func BenchmarkRerank(b *testing.B) {
	base := make([]Result, RerankDepth)
	for i := range base {
		base[i] = Result{URL: fmt.Sprintf("http://docs.test/mod/mod_proxy_%d.html", i),
			Title: fmt.Sprintf("mod_proxy_%d - Apache HTTP Server Version 2.4", i), Score: float64(100 - i), Inlinks: i,
			LinkOnly: i%7 == 0, State: "out_of_scope"}
	}
	terms := []string{"reverse", "proxy", "guide"}
	rs := make([]Result, len(base))
	b.ReportAllocs()
	for b.Loop() {
		copy(rs, base)
		Rerank(rs, terms)
	}
}

// Issue 32, cited definitions: an anchor text that is the identifier the query's words spell
// votes ("DocumentRoot" for "document root"), one that spells another does not.
func TestAnchorVotesIdentifier(t *testing.T) {
	anchors := map[string]int{"DocumentRoot": 21, "DocumentRoot directory-path": 1, "VirtualDocumentRoot": 4, "Root": 2}
	if got := AnchorVotes(anchors, []string{"document", "root"}); got != 22 {
		t.Errorf("AnchorVotes(document root) = %d, want 22", got)
	}
}

// Issue 32, cited definitions: of the pages that define DocumentRoot / DOCUMENT_ROOT, the one
// other pages cite by the name comes first, though another definition scored better; the
// score tells it (CitedFactor); the definitions no page cites keep their order.
func TestRerankCitedDefinition(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/mod/mod_cgi.html", Title: "mod_cgi", Headings: "Environment variables DOCUMENT_ROOT", Score: 7},
		{URL: "http://a.test/rewrite/remapping.html", Title: "Remapping", Headings: "Moved DocumentRoot", Score: 6},
		{URL: "http://a.test/mod/core.html", Title: "core", Headings: "DocumentRoot Directive", Score: 3, AnchorVotes: 22},
	}
	Rerank(rs, []string{"document", "root"})
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
	}
	want := []string{"http://a.test/mod/core.html", "http://a.test/mod/mod_cgi.html", "http://a.test/rewrite/remapping.html"}
	if !slices.Equal(got, want) || rs[0].CitedFactor <= 1 || rs[1].CitedFactor != 1 {
		t.Errorf("Rerank order = %q (CitedFactor %v, %v), want %q", got, rs[0].CitedFactor, rs[1].CitedFactor, want)
	}
}

// Issue 32 part 2, "a boost that body frequency alone cannot beat": the tutorial named for
// "htaccess tutorial" by its title and URL beats a page whose title holds "htaccess" alone and
// whose body scores twelve times better, and a page whose title holds neither word.
func TestRerankTitleURLAbovePartialTitles(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/mod/core.html", Title: "core", Score: 10},
		{URL: "http://a.test/faq/htaccess.html", Title: "htaccess FAQ", Score: 12},
		{URL: "http://a.test/howto/htaccess.html", Title: "Apache Tutorial: .htaccess files", Score: 1},
	}
	Rerank(rs, []string{"htaccess", "tutorial"})
	if rs[0].URL != "http://a.test/howto/htaccess.html" {
		t.Errorf("Rerank order = %v, want the tutorial first", rs)
	}
}

// Issue 32, the httpd judged set ("which port does https use"): a word without a vowel is an
// abbreviation, whose final s is no plural: "https" is not "http", so an anchor text that says
// "HTTP" and "ports" is no vote for "https port"; plurals still fold.
func TestSStemAbbreviation(t *testing.T) {
	for w, want := range map[string]string{"https": "https", "dns": "dns", "ports": "port", "urls": "url", "queries": "query"} {
		if got := sStem(w); got != want {
			t.Errorf("sStem(%q) = %q, want %q", w, got, want)
		}
	}
	if n := AnchorVotes(map[string]int{"Setting which addresses and ports HTTP uses": 4}, []string{"port", "https"}); n != 0 {
		t.Errorf("AnchorVotes(port https) = %d, want 0", n)
	}
}

// The anchor votes of an identifier whose runs split the words otherwise than the query does.
func TestAnchorVotesIdentifierRuns(t *testing.T) {
	if n := AnchorVotes(map[string]int{"Keep_AliveTimeout": 2}, []string{"keepalive", "timeout"}); n != 2 {
		t.Errorf("AnchorVotes(keepalive timeout) = %d, want 2", n)
	}
}
