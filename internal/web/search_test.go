package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// hostilePages try to break out of every HTML context the search page writes them into: the
// title (a link's text), the URL (an href and text), and the snippet.
var hostilePages = []page{
	{URL: "http://a.test/", Title: `Quasar <script>window.pwned=1</script> "quoted" & 'single'`,
		Text:  `quasar text <img src=x onerror=alert(1)> and </mark><script>alert(2)</script> "quasar" quote`,
		Links: []store.Link{{To: "http://a.test/vault/plans", Anchor: "quasar vault plans"}}},
	{URL: `http://a.test/q"><script>alert(3)</script>`, Title: `quasar attribute breaker`, Text: "quasar in an odd URL"},
	{URL: "javascript:alert(4)", Title: "quasar javascript URL", Text: "quasar behind a javascript: URL"},
	{URL: "data:text/html,<script>alert(5)</script>", Title: "quasar data URL", Text: "quasar behind a data: URL"},
}

var hostileBlocks = []blocked{{URL: "http://a.test/vault/plans", Reason: "Disallow: /vault (robots.txt line 2)", Line: 2}}

// Issue 4, docs/design.md: page content is hostile. Titles, snippets and URLs reach the page only as
// escaped text; only http(s) URLs become links, and those carry rel="noopener noreferrer
// nofollow"; matched words are the only <mark> elements.
func TestSearchEscapesHostileContent(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	resp, body := get(t, srv, "/?q=quasar")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", resp.StatusCode, body)
	}
	for _, raw := range []string{"<script>", "<img src=x", `href="javascript:`, `href="data:`, "</mark><script>"} {
		if strings.Contains(body, raw) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	doc := parseHTML(t, body)
	each(doc, func(n *html.Node) {
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s> has an event handler %s=%q", n.Data, a.Key, a.Val)
			}
		}
		switch n.Data {
		case "script", "iframe", "object":
			t.Errorf("the page has a <%s> element", n.Data)
		case "img":
			if src, _ := attr(n, "src"); src != "/static/favicon.svg" {
				t.Errorf("<img src=%q>: the only image is the site's own icon", src)
			}
		case "a":
			href, _ := attr(n, "href")
			u, err := url.Parse(href)
			switch {
			case err != nil:
				t.Errorf("unparsable href %q", href)
			case u.Scheme == "" && strings.HasPrefix(href, "/"):
				// the site's own links
			case u.Scheme == "http" || u.Scheme == "https":
				if rel, _ := attr(n, "rel"); rel != "noopener noreferrer nofollow" {
					t.Errorf("link to %s has rel=%q", href, rel)
				}
			default:
				t.Errorf("link with href %q: only http(s) URLs may be linked", href)
			}
		case "mark":
			if got := text(n); got != "quasar" && got != "Quasar" {
				t.Errorf("<mark>%s</mark>: only matched words are marked", got)
			}
		}
	})
	titles := map[string]*html.Node{}
	for _, r := range byClass(doc, "result") {
		titles[text(firstElement(r, "h2"))] = r
	}
	for _, want := range []struct {
		title  string
		linked bool
	}{
		{`Quasar <script>window.pwned=1</script> "quoted" & 'single'`, true},
		{"quasar attribute breaker", true},
		{"quasar javascript URL", false},
		{"quasar data URL", false},
	} {
		r := titles[want.title]
		if r == nil {
			t.Errorf("no result titled %q; have %q", want.title, keys(titles))
			continue
		}
		if linked := firstElement(r, "a") != nil && firstElement(firstElement(r, "h2"), "a") != nil; linked != want.linked {
			t.Errorf("%q linked = %v, want %v", want.title, linked, want.linked)
		}
	}
	// The snippet shows the page's text, tags and all, as text.
	home := titles[`Quasar <script>window.pwned=1</script> "quoted" & 'single'`]
	snippet := firstClass(home, "snippet")
	if s := text(snippet); !strings.Contains(s, "<img src=x onerror=alert(1)>") {
		t.Errorf("snippet = %q, want the markup shown as text", s)
	}
	var marks []string
	each(snippet, func(n *html.Node) {
		if n.Data == "mark" {
			marks = append(marks, text(n))
		}
	})
	if len(marks) != 2 {
		t.Errorf("snippet marks %q, want both occurrences of quasar", marks)
	}
}

// seed 001 "Crawling vs Indexing": a URL blocked by robots.txt appears from other pages' links,
// visibly marked as not crawled, with the reason (rule 28).
func TestSearchLinkOnlyMarkerAndReason(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	_, body := get(t, srv, "/?q=vault+plans")
	doc := parseHTML(t, body)
	results := byClass(doc, "result")
	if len(results) != 1 {
		t.Fatalf("%d results for vault plans, want the link-only entry alone\n%s", len(results), body)
	}
	r := results[0]
	if !hasClass(r, "link-only") {
		t.Error("the entry is not marked link-only")
	}
	if got := text(firstClass(r, "badge")); got != "not crawled · blocked by robots.txt" {
		t.Errorf("badge %q", got)
	}
	why := text(firstClass(r, "why"))
	for _, want := range []string{"Not crawled: blocked by robots.txt", "Disallow: /vault (line 2)", "linked from 1 page"} {
		if !strings.Contains(why, want) {
			t.Errorf("why line %q lacks %q", why, want)
		}
	}
	if got := text(firstElement(r, "h2")); !strings.HasPrefix(got, "quasar vault plans") {
		t.Errorf("title %q: a link-only entry is titled by its anchor text", got)
	}
	// Indexed results carry their own why, and no marker.
	_, body = get(t, srv, "/?q=attribute+breaker")
	r = byClass(parseHTML(t, body), "result")[0]
	if hasClass(r, "link-only") || firstClass(r, "badge") != nil || !strings.HasPrefix(text(firstClass(r, "why")), "Indexed: fetched 2026-11-22 11:30 (200, text/html)") {
		t.Errorf("indexed result: %q", text(r))
	}
}

// The page shows "results 11-20 of 57" and links to its neighbours.
func TestSearchPaging(t *testing.T) {
	st := newStore(t)
	var pages []page
	for i := range 57 {
		pages = append(pages, page{URL: fmt.Sprintf("http://p.test/%02d", i), Title: fmt.Sprintf("Nebula %d", i), Text: "nebula"})
	}
	addPages(t, st, pages, nil)
	srv := newSite(t, st, nil)
	for _, tt := range []struct {
		page       string
		count      string
		results    int
		first      int
		prev, next string
	}{
		{"", "Results 1–10 of 57", 10, 1, "", "/?page=2&q=nebula"},
		{"2", "Results 11–20 of 57", 10, 11, "/?q=nebula", "/?page=3&q=nebula"},
		{"6", "Results 51–57 of 57", 7, 51, "/?page=5&q=nebula", ""},
		{"7", "No results on page 7: there are 57", 0, 0, "/?page=6&q=nebula", ""},
	} {
		resp, body := get(t, srv, "/?q=nebula&page="+tt.page)
		doc := parseHTML(t, body)
		if resp.StatusCode != http.StatusOK || text(byID(doc, "count")) != tt.count {
			t.Errorf("page %q: status %d, count %q, want %q", tt.page, resp.StatusCode, text(byID(doc, "count")), tt.count)
			continue
		}
		if got := len(byClass(doc, "result")); got != tt.results {
			t.Errorf("page %q: %d results, want %d", tt.page, got, tt.results)
		}
		if tt.results > 0 {
			if start, _ := attr(firstClass(doc, "results"), "start"); start != fmt.Sprint(tt.first) {
				t.Errorf("page %q: list starts at %s, want %d", tt.page, start, tt.first)
			}
		}
		prev, next := relLink(doc, "prev"), relLink(doc, "next")
		if prev != tt.prev || next != tt.next {
			t.Errorf("page %q: prev %q next %q, want %q %q", tt.page, prev, next, tt.prev, tt.next)
		}
	}
}

// The paging arithmetic, including the index's MaxOffset: no next link leads past it.
func TestPagerOf(t *testing.T) {
	for _, tt := range []struct {
		total, offset       int
		first, last, pageNo int
		prev, next          bool
	}{
		{0, 0, 0, 0, 1, false, false},
		{1, 0, 1, 1, 1, false, false},
		{10, 0, 1, 10, 1, false, false},
		{11, 0, 1, 10, 1, false, true},
		{11, 10, 11, 11, 2, true, false},
		{57, 10, 11, 20, 2, true, true},
		{57, 50, 51, 57, 6, true, false},
		{57, 60, 0, 0, 7, true, false},
		{5000, index.MaxOffset - 10, index.MaxOffset - 9, index.MaxOffset, 100, true, true},
		{5000, index.MaxOffset, index.MaxOffset + 1, index.MaxOffset + 10, 101, true, false},
	} {
		p := pagerOf("q", tt.total, tt.offset, 10)
		if p.First != tt.first || p.Last != tt.last || p.Page != tt.pageNo || (p.Prev != "") != tt.prev || (p.Next != "") != tt.next || p.Total != tt.total {
			t.Errorf("pagerOf(total %d, offset %d) = %+v", tt.total, tt.offset, p)
		}
	}
}

func TestSearchIntroAndNoResults(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	_, body := get(t, srv, "/")
	doc := parseHTML(t, body)
	if firstClass(doc, "intro") == nil || firstClass(doc, "results") != nil {
		t.Error("the empty query does not show the intro")
	}
	resp, body := get(t, srv, "/?q=zyzzyva")
	doc = parseHTML(t, body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(text(firstClass(doc, "none")), "No results for zyzzyva") {
		t.Errorf("no results: status %d\n%s", resp.StatusCode, body)
	}
	form := firstClass(doc, "explain")
	if form == nil {
		t.Fatal("no results: the explain form is not offered")
	}
	if action, _ := attr(form, "action"); action != "/explain" {
		t.Errorf("explain form action %q", action)
	}
}

// Bad queries are the user's problem (400), shown on the search page with the form kept.
func TestSearchBadQueries(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	for _, tt := range []struct{ query, want string }{
		{"q=" + url.QueryEscape(`;-) ""`), "no word to search for"},
		{"q=" + strings.Repeat("a", index.MaxQueryBytes+1), "longer than 512 bytes"},
		{"q=quasar&page=0", "not a page number"},
		{"q=quasar&page=x", "not a page number"},
		{"q=quasar&page=102", "too deep"},
	} {
		resp, body := get(t, srv, "/?"+tt.query)
		doc := parseHTML(t, body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(text(firstClass(doc, "problem")), tt.want) {
			t.Errorf("%.40s: status %d, problem %q, want %q", tt.query, resp.StatusCode, text(firstClass(doc, "problem")), tt.want)
		}
		if firstClass(doc, "search") == nil {
			t.Errorf("%.40s: the search form is gone", tt.query)
		}
	}
}

func firstElement(n *html.Node, tag string) *html.Node {
	var out *html.Node
	if n == nil {
		return nil
	}
	each(n, func(c *html.Node) {
		if c.Data == tag && out == nil && c != n {
			out = c
		}
	})
	return out
}

func firstClass(n *html.Node, class string) *html.Node {
	if n == nil {
		return nil
	}
	if found := byClass(n, class); len(found) > 0 {
		return found[0]
	}
	return nil
}

func relLink(doc *html.Node, rel string) string {
	var out string
	each(doc, func(n *html.Node) {
		if r, _ := attr(n, "rel"); n.Data == "a" && r == rel {
			out, _ = attr(n, "href")
		}
	})
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// issue 11 item 4: bad syntax is never an error page: the query is read as plain words, the
// results are shown, and the page says so.
func TestSearchMalformedQueryFallsBackAndSaysSo(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	resp, body := get(t, srv, "/?q="+url.QueryEscape(`"quasar`))
	doc := parseHTML(t, body)
	if resp.StatusCode != http.StatusOK || firstClass(doc, "problem") != nil {
		t.Fatalf("status %d, problem %q: want the results", resp.StatusCode, text(firstClass(doc, "problem")))
	}
	if note := text(firstClass(doc, "query-note")); !strings.Contains(note, "plain words") {
		t.Errorf("note %q, want one saying the query was read as plain words", note)
	}
	if len(byClass(doc, "result")) == 0 {
		t.Error("no results for the plain word quasar")
	}
}
