package extract

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHTMLLinkResolution(t *testing.T) {
	// Document URL: https://example.com/dir/page.html
	tests := []struct {
		name, href, want string
	}{
		{"relative", "other.html", "https://example.com/dir/other.html"},
		{"dot segments", "../up/x?q=1", "https://example.com/up/x?q=1"},
		{"root-relative", "/root", "https://example.com/root"},
		{"protocol-relative", "//cdn.example.org/a", "https://cdn.example.org/a"},
		{"absolute http", "http://other.example/", "http://other.example/"},
		{"whitespace-padded", " \n\t/padded \r\n", "https://example.com/padded"},
		{"tab and newline inside are removed", "/a\tb\nc", "https://example.com/abc"},
		{"fragment removed (same page)", "/p#section", "https://example.com/p"},
		{"fragment-only is the page itself", "#top", "https://example.com/dir/page.html"},
		{"empty href is the page itself", "", "https://example.com/dir/page.html"},
		{"query-only", "?page=2", "https://example.com/dir/page.html?page=2"},
		{"entities in the attribute are decoded", "/s?a=1&amp;b=2", "https://example.com/s?a=1&b=2"},
		{"scheme is case-insensitive", "HTTPS://Example.com/x", "https://Example.com/x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := `<a href="` + tc.href + `">x</a>`
			doc := mustHTML(t, body, Options{})
			if len(doc.Links) != 1 || doc.Links[0].URL != tc.want {
				t.Fatalf("Links = %+v, want one link to %q", doc.Links, tc.want)
			}
		})
	}
}

func TestHTMLLinksSkipped(t *testing.T) {
	// brief: hrefs that cannot be resolved are counted and skipped.
	body := `<a href="javascript:void(0)">js</a>
		<a href="mailto:someone@example.com">mail</a>
		<a href="data:text/html,hi">data</a>
		<a href="tel:+441234">tel</a>
		<a href="ftp://files.example/x">ftp</a>
		<a href="http://[::1">bad host</a>
		<a href="/ok">ok</a>`
	doc := mustHTML(t, body, Options{})
	if doc.SkippedLinks != 6 || len(doc.Links) != 1 || doc.Links[0].URL != "https://example.com/ok" {
		t.Errorf("SkippedLinks %d, Links %+v; want 6 skipped and only /ok", doc.SkippedLinks, doc.Links)
	}
}

func TestHTMLLinkElements(t *testing.T) {
	body := `<a name="anchor-without-href">not a link</a>
		<a href="/a1" rel="nofollow">one</a>
		<a href="/a2" rel="NoFollow noopener">two</a>
		<a href="/a3" rel="ugc sponsored">three</a>
		<a href="/a4" rel="nofollowing">four</a>
		<map><area href="/area" alt="  Area   text " rel="nofollow"><area alt="no href"></map>
		<a href="/img"><img src="logo.png" alt="Acme logo"></a>
		<a href="/img-and-text"><img alt="icon"> Home</a>
		<a href="/two-imgs"><img alt="A"><img alt="B"></a>
		<a href="/collapsed">  many
			spaces <span>and</span>
			<b>inline</b></a>
		<a href="/blocks"><div>x</div><div>y</div></a>
		<a href="/first">first<a href="/second">second</a>
		<a href="/with-script">a<script>s="</a>"</script>b</a>
		<template><a href="/inert">inert</a></template>
		<svg><a href="/svg-href"><text>svg</text></a><a xlink:href="/svg-xlink">x</a></svg>
		<a href="/open">unterminated`
	want := []Link{
		{URL: "https://example.com/a1", Raw: "/a1", Anchor: "one", NoFollow: true},
		{URL: "https://example.com/a2", Raw: "/a2", Anchor: "two", NoFollow: true},
		{URL: "https://example.com/a3", Raw: "/a3", Anchor: "three"},
		{URL: "https://example.com/a4", Raw: "/a4", Anchor: "four"},
		{URL: "https://example.com/area", Raw: "/area", Anchor: "Area text", NoFollow: true},
		{URL: "https://example.com/img", Raw: "/img", Anchor: "Acme logo"},
		{URL: "https://example.com/img-and-text", Raw: "/img-and-text", Anchor: "Home"},
		{URL: "https://example.com/two-imgs", Raw: "/two-imgs", Anchor: "A B"},
		{URL: "https://example.com/collapsed", Raw: "/collapsed", Anchor: "many spaces and inline"},
		{URL: "https://example.com/blocks", Raw: "/blocks", Anchor: "x y"},
		{URL: "https://example.com/first", Raw: "/first", Anchor: "first"},
		{URL: "https://example.com/second", Raw: "/second", Anchor: "second"},
		{URL: "https://example.com/with-script", Raw: "/with-script", Anchor: "ab"},
		{URL: "https://example.com/svg-href", Raw: "/svg-href", Anchor: "svg"},
		{URL: "https://example.com/svg-xlink", Raw: "/svg-xlink", Anchor: "x"},
		{URL: "https://example.com/open", Raw: "/open", Anchor: "unterminated"},
	}
	doc := mustHTML(t, body, Options{})
	if diff := cmp.Diff(want, doc.Links); diff != "" {
		t.Errorf("Links mismatch (-want +got):\n%s", diff)
	}
	if doc.SkippedLinks != 0 {
		t.Errorf("SkippedLinks = %d, want 0", doc.SkippedLinks)
	}
}

func TestHTMLScriptHidesMarkup(t *testing.T) {
	// brief: hostile input, <script> containing "</a>" strings. Nothing in
	// a script is a link, whatever it looks like.
	body := `<script>document.write('<a href="/evil">x</a>'); if (a </a> b) {}</script>
		<script><!-- <script> </a> --></script>
		<style>a[href="</a><a href='/evil2'>"]{}</style>
		<a href="/good">good</a>`
	doc := mustHTML(t, body, Options{})
	if len(doc.Links) != 1 || doc.Links[0].URL != "https://example.com/good" {
		t.Errorf("Links = %+v, want only /good", doc.Links)
	}
}

func TestHTMLBase(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"base applies to links before and after it (brief: browsers use the first base for all links)",
			`<a href="x">1</a><base href="https://base.example/d/"><a href="y">2</a>`,
			[]string{"https://base.example/d/x", "https://base.example/d/y"}},
		{"only the first base with an href counts",
			`<base target="_blank"><base href="/first/"><base href="/second/"><a href="x">1</a>`,
			[]string{"https://example.com/first/x"}},
		{"a relative base resolves against the document URL",
			`<base href="../b/"><a href="x">1</a>`,
			[]string{"https://example.com/b/x"}},
		{"a base that does not resolve leaves the document URL in effect",
			`<base href="javascript:alert(1)"><a href="x">1</a>`,
			[]string{"https://example.com/dir/x"}},
		{"base inside template is inert",
			`<template><base href="https://t.example/"></template><a href="x">1</a>`,
			[]string{"https://example.com/dir/x"}},
		{"canonical resolves against the base too",
			`<base href="https://base.example/"><link rel="canonical" href="/c"><a href="x">1</a>`,
			[]string{"https://base.example/x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustHTML(t, tc.body, Options{})
			var got []string
			for _, l := range doc.Links {
				got = append(got, l.URL)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("link URLs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTMLCanonical(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"resolved, fragment removed", `<link rel="canonical" href="/canon#x">`, "https://example.com/canon"},
		{"rel is a token list, case-insensitive", `<link rel="alternate CANONICAL" href="https://c.example/">`, "https://c.example/"},
		{"first one wins", `<link rel=canonical href=/one><link rel=canonical href=/two>`, "https://example.com/one"},
		{"base applies", `<link rel=canonical href=c><base href="/b/">`, "https://example.com/b/c"},
		{"not a canonical", `<link rel="alternate" href="/alt"><link rel="canonicalize" href="/no">`, ""},
		{"unresolvable is empty", `<link rel=canonical href="javascript:x">`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustHTML(t, tc.body, Options{})
			if doc.Canonical != tc.want {
				t.Errorf("Canonical = %q, want %q", doc.Canonical, tc.want)
			}
			if len(doc.Links) != 0 || doc.SkippedLinks != 0 {
				t.Errorf("Links %+v, SkippedLinks %d; <link> elements are not links", doc.Links, doc.SkippedLinks)
			}
		})
	}
}

func TestHTMLLinkCaps(t *testing.T) {
	var b strings.Builder
	for range 10 {
		b.WriteString(`<a href="javascript:x">js</a><a href="/p">` + strings.Repeat("anchor ", 20) + `</a>`)
	}
	doc := mustHTML(t, b.String(), Options{MaxLinks: 5, MaxAnchorBytes: 10})
	if len(doc.Links)+doc.SkippedLinks != 5 || doc.SkippedLinks != 3 {
		t.Errorf("%d links, %d skipped; want 5 link elements considered, 3 of them skipped", len(doc.Links), doc.SkippedLinks)
	}
	for _, l := range doc.Links {
		if l.Anchor != "anchor anc" {
			t.Errorf("Anchor = %q, want %q (capped at 10 bytes)", l.Anchor, "anchor anc")
		}
	}
	if !doc.Truncated.Has(CapLinks | CapAnchor) {
		t.Errorf("Truncated = %q, want links and anchor", doc.Truncated)
	}

	long := "/" + strings.Repeat("x", 100)
	doc = mustHTML(t, `<a href="`+long+`">long</a><a href="/s">short</a>`, Options{MaxURLBytes: 50})
	if doc.SkippedLinks != 1 || len(doc.Links) != 1 {
		t.Errorf("MaxURLBytes: %d skipped, links %+v; want the long href skipped", doc.SkippedLinks, doc.Links)
	}
}

// A resolver that records its calls, to show that Options.NewResolver is
// used for the document URL, for the base, and for every link.
func TestHTMLCustomResolver(t *testing.T) {
	var bases []string
	newResolver := func(base string) (ResolveFunc, error) {
		if !strings.HasPrefix(base, "https://") {
			return nil, errors.New("not https")
		}
		bases = append(bases, base)
		return func(href string) (string, error) {
			if strings.HasPrefix(href, "reject") {
				return "", errors.New("rejected")
			}
			return base + "|" + href + "#frag", nil
		}, nil
	}
	body := `<base href="b/"><a href="x">1</a><a href="reject-me">2</a>`
	doc, err := HTML([]byte(body), "https://example.com/", "", Options{NewResolver: newResolver})
	if err != nil {
		t.Fatal(err)
	}
	wantBases := []string{"https://example.com/", "https://example.com/|b/"}
	if diff := cmp.Diff(wantBases, bases); diff != "" {
		t.Errorf("NewResolver bases (-want +got):\n%s", diff)
	}
	// The fragment the resolver left is removed all the same.
	if len(doc.Links) != 1 || doc.Links[0].URL != "https://example.com/|b/|x" || doc.SkippedLinks != 1 {
		t.Errorf("Links %+v, skipped %d; want one link resolved by the custom resolver, one skipped", doc.Links, doc.SkippedLinks)
	}

	if _, err := HTML([]byte(body), "http://example.com/", "", Options{NewResolver: newResolver}); err == nil {
		t.Error("HTML with a document URL the resolver rejects: no error")
	}
}

func TestHTMLDocURLMustParse(t *testing.T) {
	// brief: the error is only for a document URL that does not parse (or,
	// with the default resolver, is not absolute http or https).
	for _, u := range []string{"http://[::1", "/relative/only", "mailto:x@example.com", "ftp://example.com/", ""} {
		if _, err := HTML([]byte("<p>x"), u, "", Options{}); err == nil {
			t.Errorf("HTML(docURL %q): no error", u)
		}
	}
	if _, err := HTML([]byte("<p>x"), "https://example.com/", "", Options{}); err != nil {
		t.Errorf("HTML with a good document URL: %v", err)
	}
}
