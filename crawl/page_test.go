package crawl_test

import (
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/fractle/mandelbot/crawl"
)

// Issue 28 item 1: the DOM reads the page in the charset it is in (a Latin-1 page named so by
// its header, or by a meta tag), as browsers do, and refuses what is not HTML.
func TestDOMDecodesCharsetAndRefusesNonHTMLIssue28(t *testing.T) {
	latin1 := []byte("<title>Caf\xe9</title><p class=x>cr\xe8me br\xfbl\xe9e</p>")
	for name, p := range map[string]*crawl.Page{
		"header": {Document: crawl.Document{URL: "https://example.com/", ContentType: "text/html",
			Header: http.Header{"Content-Type": {"text/html; charset=ISO-8859-1"}}}, Body: latin1},
		"meta": {Document: crawl.Document{URL: "https://example.com/", ContentType: "text/html",
			Header: http.Header{"Content-Type": {"text/html"}}}, Body: append([]byte(`<meta charset="iso-8859-1">`), latin1...)},
		"utf-8": {Document: crawl.Document{URL: "https://example.com/", ContentType: "text/html",
			Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}}, Body: []byte("<title>Café</title><p class=x>crème brûlée</p>")},
	} {
		dom, err := p.DOM()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := dom.Find("p.x").Text(); got != "crème brûlée" {
			t.Errorf("%s: p.x = %q, want crème brûlée", name, got)
		}
		if dom.Url == nil || dom.Url.String() != "https://example.com/" {
			t.Errorf("%s: DOM Url %v", name, dom.Url)
		}
	}
	if err := (&crawl.Page{}).Visit("/next"); !errors.Is(err, crawl.ErrPageDone) {
		t.Errorf("Visit on a Page no crawl made: %v, want ErrPageDone", err)
	}
	js := &crawl.Page{Document: crawl.Document{URL: "https://example.com/a.json", ContentType: "application/json"}, Body: []byte(`{}`)}
	if _, err := js.DOM(); !errors.Is(err, crawl.ErrNotHTML) {
		t.Errorf("DOM of JSON: %v, want ErrNotHTML", err)
	}
}

// OnHTML, Colly's style on top of OnPage: each match in document order, one parse for several
// callbacks, non-HTML pages skipped, and a bad selector refused before any crawl.
func TestOnHTMLCallsEachMatchIssue28(t *testing.T) {
	var got []string
	sigs, err := crawl.OnHTML("dt.sig", func(p *crawl.Page, e *goquery.Selection) { got = append(got, "sig "+e.Text()) })
	if err != nil {
		t.Fatal(err)
	}
	titles, err := crawl.OnHTML("title", func(p *crawl.Page, e *goquery.Selection) { got = append(got, "title "+e.Text()) })
	if err != nil {
		t.Fatal(err)
	}
	var doms []*goquery.Document
	same := func(p *crawl.Page) { d, _ := p.DOM(); doms = append(doms, d) }
	on := crawl.Pages(sigs, nil, titles, same, same)
	on(&crawl.Page{Document: crawl.Document{URL: "https://example.com/", ContentType: "text/html"},
		Body: []byte(`<title>Catalogue</title><dl><dt class=sig>Ms. 1</dt><dt>x</dt><dt class="sig">Ms. 2</dt></dl>`)})
	on(&crawl.Page{Document: crawl.Document{URL: "https://example.com/a.pdf", ContentType: "application/pdf"}, Body: []byte("%PDF")})
	if want := []string{"sig Ms. 1", "sig Ms. 2", "title Catalogue"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	if doms[0] == nil || doms[0] != doms[1] {
		t.Error("the DOM was parsed again for a later callback")
	}
	if _, err := crawl.OnHTML("dt[", func(*crawl.Page, *goquery.Selection) {}); err == nil {
		t.Error("OnHTML accepted an invalid selector")
	}
}
