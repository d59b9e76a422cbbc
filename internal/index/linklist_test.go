package index

import (
	"slices"
	"testing"
)

func TestLinkShare(t *testing.T) {
	for _, c := range []struct {
		anchor, text int
		want         float64
	}{{0, 100, 0}, {0, 0, 0}, {25, 100, 0.25}, {100, 100, 1}, {300, 20, 1}} {
		if got := LinkShare(c.anchor, c.text); got != c.want {
			t.Errorf("LinkShare(%d, %d) = %v, want %v", c.anchor, c.text, got, c.want)
		}
	}
}

// Issue 32 part 3, "pages that are mostly links are recognised by their shape and demoted,
// unless the query names them": the site map, whose text is all links and which says "custom
// error" in many of them, ranks below the page about custom error pages; for "sitemap" it is
// not demoted (its URL path names it), nor is a link list whose title holds a query word.
func TestRerankLinkListDemoted(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/sitemap.html", Title: "Site Map", Score: 10, LinkShare: 0.96},
		{URL: "http://a.test/custom-error.html", Title: "Custom Error Responses", Score: 4, LinkShare: 0.1},
		{URL: "http://a.test/mod/quickreference.html", Title: "Directive Quick Reference", Score: 3, LinkShare: 0.9},
	}
	Rerank(rs, Query{Text: "custom error pages"}.Parse().Terms())
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
		if want := r.URL == "http://a.test/sitemap.html" || r.URL == "http://a.test/mod/quickreference.html"; (r.LinkListFactor <= LinkListFactor) != want || (!want && r.LinkListFactor != 1) {
			t.Errorf("%s: LinkListFactor %v", r.URL, r.LinkListFactor)
		}
	}
	if got[0] != "http://a.test/custom-error.html" {
		t.Errorf("Rerank order = %q, want the custom error page first", got)
	}
	strong := []Result{
		{URL: "http://a.test/sitemap.html", Title: "Site Map", Score: 100, LinkShare: 0.96},
		{URL: "http://a.test/custom-error.html", Title: "Custom Error Responses", Score: 4, LinkShare: 0.1},
	}
	Rerank(strong, Query{Text: "custom error pages"}.Parse().Terms())
	if strong[0].URL != "http://a.test/custom-error.html" {
		t.Errorf("Rerank order = %v, want the link list below every other fetched page", strong)
	}
	named := []Result{
		{URL: "http://a.test/sitemap.html", Title: "Site Map", Score: 10, LinkShare: 0.96},
		{URL: "http://a.test/glossary.html", Title: "Glossary", Score: 9, LinkShare: 0.96},
	}
	Rerank(named, Query{Text: "sitemap glossary"}.Parse().Terms())
	if i := slices.IndexFunc(named, func(r Result) bool { return r.LinkListFactor != 1 }); i >= 0 {
		t.Errorf("%s demoted though the query names it", named[i].URL)
	}
}

// A terse text of terms and many links (an A-Z index) is a link list at a low LinkShare;
// prose with as many links is not, nor a table of few sentences and few links.
func TestRerankTerseIndexDemoted(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/bookindex.html", Title: "Index", Score: 10, LinkShare: 0.15, LinkRate: 9, SentenceRate: 0},
		{URL: "http://a.test/prose.html", Title: "Tutorial", Score: 9, LinkShare: 0.15, LinkRate: 9, SentenceRate: 4},
		{URL: "http://a.test/table.html", Title: "Matrix", Score: 8, LinkShare: 0.01, LinkRate: 1.6, SentenceRate: 0.9},
		{URL: "http://a.test/functions-json.html", Title: "JSON Functions", Score: 1, LinkShare: 0.01, SentenceRate: 5},
	}
	Rerank(rs, []string{"jsonb"})
	if rs[3].URL != "http://a.test/bookindex.html" || rs[0].URL != "http://a.test/prose.html" {
		t.Errorf("Rerank order = %v, want the terse index last", rs)
	}
	if LinkRate(9, 1000) != 9 || LinkRate(3, 0) != 0 {
		t.Errorf("LinkRate(9, 1000) = %v", LinkRate(9, 1000))
	}
	if n := SentenceEnds("One. Two? Three! four.5"); n != 3 || SentenceRate(n, 20) != 150 || SentenceRate(0, 0) != 0 {
		t.Errorf("SentenceEnds = %d", n)
	}
}
