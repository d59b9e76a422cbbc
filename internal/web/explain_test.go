package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Searcher.Explain behind /explain: why a URL is in the index or missing (seed 001; rules 27,
// 28), for URLs typed in any form the crawler would canonicalise.
func TestExplain(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	for _, tt := range []struct {
		url, verdict, why, badge string
	}{
		{"http://a.test/", "In the index", "Indexed: fetched 2026-11-22 11:30 (200, text/html)", ""},
		{"HTTP://A.TEST:80/vault/%70lans", "In the index as a link-only entry", "Not crawled: blocked by robots.txt, Disallow: /vault (line 2)", "not crawled · blocked by robots.txt"},
		{"http://a.test/never-seen", "Not in the index", "the crawl has never seen this URL", ""},
	} {
		resp, body := get(t, srv, "/explain?url="+url.QueryEscape(tt.url))
		doc := parseHTML(t, body)
		answer := firstClass(doc, "answer")
		if resp.StatusCode != http.StatusOK || answer == nil {
			t.Errorf("%s: status %d\n%s", tt.url, resp.StatusCode, body)
			continue
		}
		h2 := text(firstElement(answer, "h2"))
		if !strings.HasPrefix(h2, tt.verdict) || !strings.Contains(text(firstClass(answer, "why")), tt.why) || text(firstClass(answer, "badge")) != tt.badge {
			t.Errorf("%s: %q / %q", tt.url, h2, text(firstClass(answer, "why")))
		}
	}
	// The canonical form is what was looked up, and the page says so.
	_, body := get(t, srv, "/explain?url="+url.QueryEscape("HTTP://A.TEST:80/vault/%70lans"))
	if !strings.Contains(text(parseHTML(t, body)), "checked in its canonical form") {
		t.Error("the page does not say the URL was canonicalised")
	}
}

func TestExplainRejectsWhatIsNotAURL(t *testing.T) {
	st := newStore(t)
	srv := newSite(t, st, nil)
	for _, raw := range []string{"javascript:alert(1)", "not a url", "ftp://a.test/x", "http://" + strings.Repeat("a", MaxExplainURLBytes) + ".test/"} {
		resp, body := get(t, srv, "/explain?url="+url.QueryEscape(raw))
		doc := parseHTML(t, body)
		if resp.StatusCode != http.StatusBadRequest || firstClass(doc, "problem") == nil || firstClass(doc, "answer") != nil {
			t.Errorf("%.40s: status %d", raw, resp.StatusCode)
		}
	}
	if resp, body := get(t, srv, "/explain"); resp.StatusCode != http.StatusOK || firstClass(parseHTML(t, body), "explain") == nil {
		t.Errorf("the bare explain page: status %d", resp.StatusCode)
	}
}

// Issue 10: the URL lookup lists the pages that link to the URL, with their anchor text, each
// itself a lookup.
func TestExplainListsLinkingPages(t *testing.T) {
	st, web := crawlSky(t)
	srv := newSite(t, st, nil)
	_, body := get(t, srv, "/explain?url="+url.QueryEscape(web.URL("sky", "/vault/charts")))
	doc := parseHTML(t, body)
	got := text(byID(doc, "inlinks"))
	want := "1 " + web.URL("sky", "/") + " “the nebula charts vault”"
	if got != want {
		t.Errorf("linking pages %q, want %q", got, want)
	}
	// html/template writes percent-escapes in lower case.
	if !strings.Contains(strings.ToLower(body), strings.ToLower(`href="/explain?url=`+url.QueryEscape(web.URL("sky", "/")))) {
		t.Errorf("the linking page is not itself a lookup:\n%s", body)
	}
}
