package extract

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// domReference reads the links, title and canonical href of a page the slow
// way: golang.org/x/net/html's tree builder (scripting off, as Mandelbot
// runs no scripts), then a walk of the DOM. It is the reference the
// streaming extractor is checked against on well-formed pages.
func domReference(t *testing.T, page []byte) (hrefs []string, title, canonical string) {
	t.Helper()
	root, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, ns, key string) (string, bool) {
		for _, a := range n.Attr {
			if a.Namespace == ns && a.Key == key {
				return a.Val, true
			}
		}
		return "", false
	}
	// Template content is inert: no links, title or canonical come from it.
	inTemplate := func(n *html.Node) bool {
		for p := range n.Ancestors() {
			if p.Type == html.ElementNode && p.DataAtom == atom.Template && p.Namespace == "" {
				return true
			}
		}
		return false
	}
	var titleSeen, canonicalSeen bool
	for n := range root.Descendants() {
		switch {
		case n.Type != html.ElementNode || inTemplate(n):
		case n.Namespace == "svg" && n.Data == "a":
			if href, ok := attr(n, "", "href"); ok {
				hrefs = append(hrefs, href)
			} else if href, ok := attr(n, "xlink", "href"); ok {
				hrefs = append(hrefs, href)
			}
		case n.Namespace != "":
		case n.DataAtom == atom.A || n.DataAtom == atom.Area:
			if href, ok := attr(n, "", "href"); ok {
				hrefs = append(hrefs, href)
			}
		case n.DataAtom == atom.Title && !titleSeen:
			titleSeen = true
			if c := n.FirstChild; c != nil {
				title = strings.Join(strings.Fields(c.Data), " ")
			}
		case n.DataAtom == atom.Link && !canonicalSeen:
			if rel, _ := attr(n, "", "rel"); hasToken(rel, "canonical") {
				canonical, _ = attr(n, "", "href")
				canonicalSeen = true
			}
		}
	}
	return hrefs, title, canonical
}

func TestHTMLAgreesWithTreeParser(t *testing.T) {
	pages := map[string][]byte{
		"bench page": benchPage(),
		"fuzz seed":  []byte(fuzzSeeds[0]),
		"mixed": []byte(`<html><head><title>  A
			title </title><link rel="stylesheet canonical" href="/c"></head><body>
			<noscript><a href="/ns">ns</a></noscript><template><a href="/t">t</a></template>
			<svg><title>svg</title><a xlink:href="/x1"><text>x</text></a></svg>
			<map><area href="/area1"><area nohref></map><p><a href="">empty</a><a>none</a>
			<script>"<a href='/no'>"</script><textarea><a href="/no2"></textarea>
			<table><tr><td><a href="/cell">c</a></td></tr></table></body></html>`),
	}
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			wantHrefs, wantTitle, wantCanonical := domReference(t, page)
			doc, err := HTML(page, testDocURL, "text/html; charset=utf-8", Options{NewResolver: identityResolver})
			if err != nil {
				t.Fatal(err)
			}
			var gotHrefs []string
			for _, l := range doc.Links {
				gotHrefs = append(gotHrefs, l.Raw)
			}
			if diff := cmp.Diff(wantHrefs, gotHrefs); diff != "" {
				t.Errorf("hrefs differ from the DOM's (-dom +extract):\n%s", diff)
			}
			// The extractor drops the fragment whatever the resolver does.
			wantCanonical = stripFragment(wantCanonical)
			if doc.Title != wantTitle || doc.Canonical != wantCanonical {
				t.Errorf("Title %q, Canonical %q; the DOM says %q, %q", doc.Title, doc.Canonical, wantTitle, wantCanonical)
			}
		})
	}
}

// identityResolver keeps every href as written, so links compare raw.
func identityResolver(string) (ResolveFunc, error) {
	return func(href string) (string, error) { return href, nil }, nil
}
