package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// rankPage is a page of a ranking check: fetched with a document, or (doc nil) only linked to.
type rankPage struct {
	url   string
	doc   *store.Document
	links []store.Link // from this page; FromID is filled in
	// state of a page only linked to: "" (queued), store.StateOutOfScope or
	// store.StateRobotsDisallowed.
	state store.State
}

// indexPages commits pages, fetched ones with their documents and links, and refreshes the
// index. It returns the pages' URL records by URL.
func indexPages(t *testing.T, s store.Store, pages []rankPage) map[string]store.URL {
	t.Helper()
	var news []store.NewURL
	for _, p := range pages {
		if p.state == store.StateOutOfScope {
			news = append(news, outOfScope(p.url, "host is outside --scope host", t0))
		} else {
			news = append(news, queued(p.url, 0, t0))
		}
	}
	byURL := map[string]store.URL{}
	for _, u := range commit(t, s, store.Batch{New: news}) {
		byURL[u.URL] = u
	}
	var b store.Batch
	for _, p := range pages {
		if p.doc == nil {
			if p.state == store.StateRobotsDisallowed {
				u := byURL[p.url]
				u.State, u.Reason = store.StateRobotsDisallowed, "Disallow: / (robots.txt line 2)"
				b.Updates = append(b.Updates, u)
			}
			continue
		}
		u := byURL[p.url]
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		d := *p.doc
		d.URLID, d.Index = u.ID, true
		b.Documents = append(b.Documents, d)
		for _, l := range p.links {
			l.FromID = u.ID
			b.Links = append(b.Links, l)
		}
	}
	commit(t, s, b)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	return byURL
}

// searchPage runs a query and fails the test on an error.
func searchPage(t *testing.T, s store.Store, q string) index.Page {
	t.Helper()
	p, err := s.Search(t.Context(), index.Query{Text: q, Limit: 50, Now: t0})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return p
}

func resultURLs(p index.Page) []string {
	var out []string
	for _, r := range p.Results {
		out = append(out, r.URL)
	}
	return out
}

// Issue 11, ranking rule "title and heading matches outrank body matches" (index/ranking.go):
// a page with the word in its title beats pages with it, more often, in the body.
func testRankTitleBeatsBody(t *testing.T, s store.Store) {
	indexPages(t, s, []rankPage{
		{url: "http://a.test/body1", doc: &store.Document{Title: "Marine mammals", Text: "The walrus is large. A walrus has tusks. Walrus herds rest on ice."}},
		{url: "http://a.test/title", doc: &store.Document{Title: "Walrus", Text: "A large marine mammal with tusks that rests on the ice in herds."}},
		{url: "http://a.test/body2", doc: &store.Document{Title: "Arctic animals", Text: "Seals, walrus and narwhals live in the Arctic with the walrus."}},
	})
	if got := resultURLs(searchPage(t, s, "walrus")); len(got) != 3 || got[0] != "http://a.test/title" {
		t.Errorf("search walrus = %q, want http://a.test/title first of 3", got)
	}
}

// Issue 11, ranking rule "title and heading matches outrank body matches": a page with the words
// in a heading beats pages with them only in the body (the "foreign key" case: a section
// "Foreign Keys" of a long page).
func testRankHeadingBeatsBody(t *testing.T, s store.Store) {
	indexPages(t, s, []rankPage{
		{url: "http://a.test/body1", doc: &store.Document{Title: "Referential constraints view", Text: "Shows each foreign key of the tables. The foreign key columns."}},
		{url: "http://a.test/constraints", doc: &store.Document{Title: "Constraints", Headings: "Check Constraints Foreign Keys",
			Text: "Check Constraints A check constraint is the most generic type. Foreign Keys A foreign key constraint specifies that the values in a column must match the values appearing in some row of another table."}},
		{url: "http://a.test/body2", doc: &store.Document{Title: "Insert statements", Text: "Builds an insert statement using a primary key and a foreign key."}},
	})
	if got := resultURLs(searchPage(t, s, "foreign key")); len(got) != 3 || got[0] != "http://a.test/constraints" {
		t.Errorf("search foreign key = %q, want http://a.test/constraints first of 3", got)
	}
}

// Issue 11, ranking rule "fetched pages outrank link-only entries for the same words": the
// module's own documentation beats an out-of-scope link to its source file (the "pathlib"
// case), and a link-only entry is still findable by its anchor text (seed 001). The page's URL
// does not hold the word, so that the title-and-URL rule (issue 32) does not decide it.
func testRankFetchedBeatsLinkOnly(t *testing.T, s store.Store) {
	indexPages(t, s, []rankPage{
		{url: "http://a.test/library/fs-paths.html", doc: &store.Document{Title: "pathlib — Object-oriented filesystem paths",
			Text: "This module offers classes representing filesystem paths with semantics appropriate for different operating systems. Pure paths and concrete paths."},
			links: []store.Link{{To: "http://src.test/Lib/pathlib.py", Anchor: "Lib/pathlib.py"}}},
		{url: "http://a.test/library/index.html", doc: &store.Document{Title: "The Python Standard Library", Text: "File and directory access"},
			links: []store.Link{{To: "http://src.test/Lib/pathlib.py", Anchor: "pathlib"}, {To: "http://a.test/library/fs-paths.html", Anchor: "pathlib — Object-oriented filesystem paths"}}},
		{url: "http://src.test/Lib/pathlib.py"},
	})
	p := searchPage(t, s, "pathlib")
	got := resultURLs(p)
	if len(got) < 2 || got[0] != "http://a.test/library/fs-paths.html" {
		t.Errorf("search pathlib = %q, want the fetched http://a.test/library/fs-paths.html first", got)
	}
	if !slices.Contains(got, "http://src.test/Lib/pathlib.py") {
		t.Errorf("search pathlib = %q, want the link-only entry among the results (seed 001)", got)
	}
	for _, r := range p.Results {
		if r.URL == "http://src.test/Lib/pathlib.py" && !r.LinkOnly {
			t.Errorf("%s: LinkOnly false", r.URL)
		}
	}
}

// Issue 11, ranking rule "anchor text of links to a fragment never becomes the title of the
// page": "Build Changes", the text of two links to whatsnew#build-changes, finds the page, but
// its title is the anchor text of the link to the page itself.
func testRankFragmentAnchorNeverTitles(t *testing.T, s store.Store) {
	const target = "http://a.test/whatsnew/3.11.html"
	indexPages(t, s, []rankPage{
		{url: "http://a.test/one", doc: &store.Document{Title: "One", Text: "one"},
			links: []store.Link{{To: target, Anchor: "Build Changes", Fragment: true}, {To: "http://a.test/only-sections", Anchor: "Deprecated", Fragment: true}}},
		{url: "http://a.test/two", doc: &store.Document{Title: "Two", Text: "two"},
			links: []store.Link{{To: target, Anchor: "Build Changes", Fragment: true}}},
		{url: "http://a.test/three", doc: &store.Document{Title: "Three", Text: "three"},
			links: []store.Link{{To: target, Anchor: "What's New In Python 3.11"}}},
		{url: target}, {url: "http://a.test/only-sections"},
	})
	for q, want := range map[string]string{"build changes": "What's New In Python 3.11", "deprecated": ""} {
		p := searchPage(t, s, q)
		if len(p.Results) != 1 {
			t.Errorf("search %q = %q, want one link-only entry", q, resultURLs(p))
			continue
		}
		if r := p.Results[0]; r.Title != want {
			t.Errorf("search %q: %s titled %q, want %q (a fragment's anchor never titles the page)", q, r.URL, r.Title, want)
		}
	}
}

// Issue 11, "one page, one result": a site's "/" and "/index.html", the same page, are one
// result, under "/"; so are two URLs with the same content, under the one the page names
// canonical.
func testDedupeOnePageOneResult(t *testing.T, s store.Store) {
	home := store.Document{Title: "Quokka home", Text: "All about the quokka."}
	other := store.Document{Title: "Quokka news", Text: "The quokka smiles."}
	urls := indexPages(t, s, []rankPage{
		{url: "http://a.test/", doc: &home},
		{url: "http://a.test/index.html", doc: &home},
		{url: "http://a.test/news?utm=x", doc: &other},
		{url: "http://a.test/news", doc: &other},
		{url: "http://a.test/docs/index.html", doc: &store.Document{Title: "Quokka docs", Text: "Docs of the quokka, version 2."}},
		{url: "http://a.test/docs/", doc: &store.Document{Title: "Quokka docs", Text: "Docs of the quokka, version 1."}},
	})
	got := resultURLs(searchPage(t, s, "quokka"))
	slices.Sort(got)
	want := []string{"http://a.test/", "http://a.test/docs/", "http://a.test/news"}
	if !slices.Equal(got, want) {
		t.Errorf("search quokka = %q, want %q", got, want)
	}
	_ = urls
}

// Issue 11 item 5: counting stops at index.MaxCount, and the page says total is a lower bound;
// below it the count is exact. A common word's search still answers a full page.
func testSearchCountStops(t *testing.T, s store.Store) {
	n := index.MaxCount + 50
	var news []store.NewURL
	for i := range n {
		news = append(news, queued(fmt.Sprintf("http://c.test/%d", i), 0, t0))
	}
	added := commit(t, s, store.Batch{New: news})
	var b store.Batch
	for i, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		text := fmt.Sprintf("common words of page %d", i)
		if i%100 == 0 {
			text += " scarce"
		}
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: fmt.Sprintf("page %d", i), Text: text})
	}
	commit(t, s, b)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	p := searchPage(t, s, "common")
	if p.Total != index.MaxCount || !p.TotalIsLowerBound || len(p.Results) != 50 {
		t.Errorf("common: total %d, lower bound %v, %d results; want %d, true, 50", p.Total, p.TotalIsLowerBound, len(p.Results), index.MaxCount)
	}
	p = searchPage(t, s, "scarce")
	if want := (n + 99) / 100; p.Total != want || p.TotalIsLowerBound || len(p.Results) != want {
		t.Errorf("scarce: total %d, lower bound %v, %d results; want %d, false, %d", p.Total, p.TotalIsLowerBound, len(p.Results), want, want)
	}
}

// Issue 11 item 1, ranking rule "anchor votes" (index/ranking.go, AnchorVotes): the reference page
// that many pages link to as "wal_level" (a long settings page that names it once) beats a short
// page that mentions it more often, though both have as many inlinks and the same anchor text.
func testRankAnchorVotes(t *testing.T, s store.Store) {
	const settings, alter = "http://a.test/runtime-config-wal.html", "http://a.test/sql-altersystem.html"
	pages := []rankPage{
		{url: settings, doc: &store.Document{Title: "Write Ahead Log", Text: "Settings. wal_level (enum) determines how much " +
			"information is written to the log. The default value is replica, which writes enough data to support archiving " +
			"and replication, including running read-only queries on a standby server. Minimal removes all logging except " +
			"the information required to recover from a crash or immediate shutdown. Finally, logical adds information " +
			"necessary to support logical decoding. Each level includes the information logged at all lower levels."}},
		{url: alter, doc: &store.Document{Title: "Alter System", Text: "ALTER SYSTEM changes a configuration parameter " +
			"across the whole cluster: SET wal_level TO replica writes wal_level to the auto configuration file."}},
	}
	const voters = 20
	for i := range voters {
		p := rankPage{url: fmt.Sprintf("http://a.test/replication-%d.html", i),
			doc:   &store.Document{Title: fmt.Sprintf("Replication step %d", i), Text: "Set the parameter before the standby starts."},
			links: []store.Link{{To: settings, Anchor: "wal_level", Fragment: true}, {To: alter}}}
		if i == 0 {
			p.links[1].Anchor = "wal_level"
		}
		pages = append(pages, p)
	}
	indexPages(t, s, pages)
	got := resultURLs(searchPage(t, s, "wal_level"))
	if len(got) != 2 || got[0] != settings {
		t.Errorf("search wal_level = %q, want %s (named so by %d pages) first of 2", got, settings, voters)
	}
}

// Issue 11 item 1, "matches close together outrank scattered ones", and most of all the words
// next to each other in the order typed (index/ranking.go, PhraseBoost): the page that says
// "string concatenation" beats the one that says "concatenation" twice and "string" near it.
func testRankPhraseBeatsNear(t *testing.T, s store.Store) {
	const phrase, near = "http://a.test/p1.html", "http://a.test/p2.html"
	pages := []rankPage{
		{url: phrase, doc: &store.Document{Title: "Operators", Text: "The operator || performs string concatenation and returns text."}},
		{url: near, doc: &store.Document{Title: "Arrays", Text: "Concatenation appends a string element; concatenation joins arrays."}},
	}
	for i := range 6 { // pages without the words, so that the words are rare enough to count
		pages = append(pages, rankPage{url: fmt.Sprintf("http://a.test/other-%d.html", i),
			doc: &store.Document{Title: fmt.Sprintf("Chapter %d", i), Text: "Tables, rows and columns."}})
	}
	indexPages(t, s, pages)
	if got := resultURLs(searchPage(t, s, "string concatenation")); len(got) != 2 || got[0] != phrase {
		t.Errorf("search string concatenation = %q, want %s first of 2", got, phrase)
	}
}

// referenceText is n sentences of the generic text a long reference page repeats, for a
// ranking check's pages that must match a query by their length rather than their words.
func referenceText(n int) string {
	return strings.Repeat("Directives in the main configuration file apply to the whole server, and the "+
		"server reads that file once, at start; a change needs a restart. ", n)
}

// Issue 32 part 2, "title and URL together" (index/ranking.go, TitleURLBoost): the tutorial whose
// title holds "htaccess tutorial" and whose URL path holds htaccess beats the reference page
// that many pages link to and that says both words again and again in its body; the score
// tells it: the tutorial's TitleURLFactor is at least TitleURLBoost, the reference page's 1.
func testRankTitleAndURL(t *testing.T, s store.Store) {
	const tutorial, reference = "http://a.test/howto/htaccess.html", "http://a.test/mod/core.html"
	long := referenceText(12)
	pages := []rankPage{
		{url: tutorial, doc: &store.Document{Title: "Apache Tutorial: .htaccess files",
			Text: "Files that change the configuration of one directory. " + long}},
		{url: reference, doc: &store.Document{Title: "core",
			Text: strings.Repeat("AllowOverride: which directives an htaccess file may hold; see the htaccess tutorial. "+
				"AccessFileName: the name of the htaccess file, as in the tutorial. Each htaccess file is read "+
				"on every request, the tutorial says; the htaccess tutorial has examples of htaccess files. ", 8)}},
	}
	for i := range 20 { // pages that link to the reference, and no text of the query
		pages = append(pages, rankPage{url: fmt.Sprintf("http://a.test/mod/m%d.html", i),
			doc:   &store.Document{Title: fmt.Sprintf("Module %d", i), Text: "Directives of one module."},
			links: []store.Link{{To: reference, Anchor: "core"}}})
	}
	indexPages(t, s, pages)
	p := searchPage(t, s, "htaccess tutorial")
	if got := resultURLs(p); len(got) != 2 || got[0] != tutorial {
		t.Errorf("search htaccess tutorial = %q, want %s first of 2", got, tutorial)
	}
	for _, r := range p.Results {
		if want := r.URL == tutorial; (r.TitleURLFactor >= index.TitleURLBoost) != want || (!want && r.TitleURLFactor != 1) {
			t.Errorf("%s: TitleURLFactor %v, want %v", r.URL, r.TitleURLFactor, map[bool]string{true: ">= TitleURLBoost", false: "1"}[want])
		}
	}
}

// Issue 32 part 3, "link-only entries outside the crawl's scope rank below every crawled page
// that matches, unless their anchor text is the best match" (index/ranking.go,
// OutOfScopeMargin): a link into a source repository that ten pages call "tokenizer" ranks
// below the crawled page that mentions the tokenizer once; a robots-blocked URL with the same
// links keeps today's place above it (seed 001). (The exception, an anchor text that is the best
// match, is index.TestRerankOutOfScopeBelowCrawled's: the stores' own scores decide whether
// such an entry was above a crawled page to begin with.)
func testRankOutOfScopeBelowCrawled(t *testing.T, s store.Store) {
	const (
		titled  = "http://a.test/tokenizer.html"
		weak    = "http://a.test/lexing.html"
		outside = "http://src.test/tokenizer.c"
		blocked = "http://a.test/private/tokenizer-notes.html"
	)
	pages := []rankPage{
		{url: titled, doc: &store.Document{Title: "Tokenizer", Text: "Splits the input into tokens, one at a time."}},
		{url: weak, doc: &store.Document{Title: "Lexical analysis", Text: "Reading source text: the tokenizer comes first, " +
			"then the grammar. " + strings.Repeat("Grammar rules name the kinds of statement. ", 6)}},
		{url: outside, state: store.StateOutOfScope},
		{url: blocked, state: store.StateRobotsDisallowed},
	}
	for i := range 10 {
		pages = append(pages, rankPage{url: fmt.Sprintf("http://a.test/step-%d.html", i),
			doc:   &store.Document{Title: fmt.Sprintf("Step %d", i), Text: "Build the project, then run it."},
			links: []store.Link{{To: outside, Anchor: "tokenizer"}, {To: blocked, Anchor: "tokenizer"}}})
	}
	indexPages(t, s, pages)
	p := searchPage(t, s, "tokenizer")
	got := resultURLs(p)
	at := func(u string) int { return slices.Index(got, u) }
	if at(weak) < 0 || at(outside) < 0 || at(blocked) < 0 {
		t.Fatalf("search tokenizer = %q, want %s, %s and %s among the results", got, weak, outside, blocked)
	}
	if at(outside) < at(weak) || at(outside) < at(titled) {
		t.Errorf("search tokenizer = %q: the out-of-scope %s ranks above a crawled page", got, outside)
	}
	if at(blocked) > at(weak) {
		t.Errorf("search tokenizer = %q: the robots-blocked %s lost its place above %s (seed 001)", got, blocked, weak)
	}
}

// Issue 32 part 1, "a query that names a defined identifier favours the page that defines it"
// (index/ranking.go, DefinesBoost): for "keep alive timeout", the long reference page whose
// headings define KeepAliveTimeout beats the short page that says the three words again and
// again; the score tells it: the reference's DefinesFactor is at least DefinesBoost, the
// other's 1.
func testRankDefinedIdentifier(t *testing.T, s store.Store) {
	const reference, tuning = "http://a.test/mod/core.html", "http://a.test/misc/perf-tuning.html"
	long := referenceText(12)
	pages := []rankPage{
		{url: reference, doc: &store.Document{Title: "core - Apache HTTP Server",
			Headings: "AllowOverride Directive KeepAliveTimeout Directive",
			Text:     "AllowOverride Directive. KeepAliveTimeout Directive: seconds to wait for the next request. " + long}},
		{url: tuning, doc: &store.Document{Title: "Performance Tuning", Headings: "Connections",
			Text: strings.Repeat("Keep the keep alive timeout short: a long keep alive timeout holds a worker. ", 4)}},
	}
	for i := range 6 { // pages without the words, so that the words are rare enough to count
		pages = append(pages, rankPage{url: fmt.Sprintf("http://a.test/other-%d.html", i),
			doc: &store.Document{Title: fmt.Sprintf("Chapter %d", i), Text: "Modules, handlers and filters."}})
	}
	indexPages(t, s, pages)
	p := searchPage(t, s, "keep alive timeout")
	if got := resultURLs(p); len(got) != 2 || got[0] != reference {
		t.Errorf("search keep alive timeout = %q, want %s first of 2", got, reference)
	}
	for _, r := range p.Results {
		if want := r.URL == reference; (r.DefinesFactor >= index.DefinesBoost) != want || (!want && r.DefinesFactor != 1) {
			t.Errorf("%s: DefinesFactor %v, want %v", r.URL, r.DefinesFactor, map[bool]string{true: ">= DefinesBoost", false: "1"}[want])
		}
	}
}

// Issue 32 part 3, "pages that are mostly links (generated indexes, tag clouds) are recognised by
// their shape and demoted, unless the query names them" (index/ranking.go, LinkListShare): the
// site map, whose text is the anchor text of its links and says "error responses" in many of
// them, ranks below the page about error responses that says the words once, and so does an
// A-Z index of terms and the same links, without a sentence (LinkListLinkRate). For "site map error", whose words its title
// holds, it is not demoted.
func testRankLinkListDemoted(t *testing.T, s store.Store) {
	const siteMap, page = "http://a.test/contents.html", "http://a.test/errors.html"
	const terms = "http://a.test/terms.html" // an A-Z index: a term, then links, no sentence
	var anchors, entries []string
	var links []store.Link
	for i := range 12 {
		a := fmt.Sprintf("Error responses of module %d", i)
		anchors = append(anchors, a)
		entries = append(entries, fmt.Sprintf("status code %d and its handler, %s", i, a))
		links = append(links, store.Link{To: fmt.Sprintf("http://a.test/mod/m%d.html", i), Anchor: a})
	}
	pages := []rankPage{
		{url: siteMap, doc: &store.Document{Title: "Site Map", Text: strings.Join(anchors, " ")}, links: links},
		{url: terms, doc: &store.Document{Title: "Terms", Text: strings.Join(entries, " ")}, links: links},
		{url: page, doc: &store.Document{Title: "Custom responses",
			Text: "The server answers a failed request with error responses you may write yourself. " +
				strings.Repeat("A handler decides what the client sees, and a filter may change it on the way out. ", 6)}},
	}
	for i := range 12 {
		pages = append(pages, rankPage{url: fmt.Sprintf("http://a.test/mod/m%d.html", i),
			doc: &store.Document{Title: fmt.Sprintf("Module %d", i), Text: "Directives of one module."}})
	}
	indexPages(t, s, pages)
	p := searchPage(t, s, "error responses")
	got := resultURLs(p)
	for _, list := range []string{siteMap, terms} {
		if i, j := slices.Index(got, page), slices.Index(got, list); i < 0 || j < 0 || j < i {
			t.Errorf("search error responses = %q, want %s above %s", got, page, list)
		}
	}
	for _, r := range p.Results {
		switch r.URL {
		case siteMap, terms:
			if r.LinkListFactor >= 1 {
				t.Errorf("%s: LinkListFactor %v (LinkShare %v, SentenceRate %v), want it demoted", r.URL, r.LinkListFactor, r.LinkShare, r.SentenceRate)
			}
		case page:
			if r.LinkListFactor != 1 || r.LinkShare != 0 || r.SentenceRate == 0 {
				t.Errorf("%s: LinkListFactor %v, LinkShare %v, SentenceRate %v, want 1, 0, > 0", r.URL, r.LinkListFactor, r.LinkShare, r.SentenceRate)
			}
		}
	}
	p = searchPage(t, s, "site map error")
	if got := resultURLs(p); len(got) != 1 || got[0] != siteMap || p.Results[0].LinkListFactor != 1 {
		t.Errorf("search site map error = %q, want %s alone, not demoted", got, siteMap)
	}
}

// Issue 32 part 4, "the snippet is the sentence that holds the most query words; code blocks
// only when the query looks like code" (index.Snippet): for "error responses custom", the
// snippet is the sentence that says all three words, not the code block before it nor the first
// sentence that says "errors", and the words are marked.
func testSnippetSentence(t *testing.T, s store.Store) {
	const page = "http://a.test/custom-error.html"
	indexPages(t, s, []rankPage{{url: page, doc: &store.Document{Title: "Responses",
		Text: "Examples: >>> set_error(404, '/missing.html'); error(500) >>> done. Errors are logged. " +
			strings.Repeat("Each request is answered. ", 5) +
			"The server sends custom error responses for each status code you configure. The end."}}})
	p := searchPage(t, s, "error responses custom")
	if len(p.Results) != 1 {
		t.Fatalf("search error responses custom = %q, want %s", resultURLs(p), page)
	}
	var text strings.Builder
	var marked []string
	for _, sp := range p.Results[0].Snippet {
		text.WriteString(sp.Text)
		if sp.Match {
			marked = append(marked, sp.Text)
		}
	}
	if got := text.String(); got != "The server sends custom error responses for each status code you configure." {
		t.Errorf("snippet %q, want the sentence that holds every query word", got)
	}
	if want := []string{"custom", "error", "responses"}; !slices.Equal(marked, want) {
		t.Errorf("snippet marks %q, want %q", marked, want)
	}
}
