package extract

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fuzzSeeds are pages that reach every branch of the extractor.
var fuzzSeeds = []string{
	`<!doctype html><html lang=en><head><meta charset=utf-8><title>T &amp; t</title>
	<base href="/b/"><link rel=canonical href="c#x"><meta name=robots content=noindex></head>
	<body><p>a</p><p>b<a href="x" rel=nofollow>link<img alt=i></a><area href=y alt=z>
	<script>"</a>"</script><style>p{}</style><noscript><p>ns</noscript><template><a href=t>t</a></template>
	<svg><title>s</title><a xlink:href="/s">svg</a><style><![CDATA[x]]></style></svg><math><mi>x</mi></math>
	<textarea>ta</textarea><xmp>x</xmp><iframe>f</iframe><plaintext>rest`,
	"<meta charset=shift_jis><title>" + sjisBytes + "</title><a href=/" + sjisSoftBytes + ">" + sjisSoftBytes + "</a>",
	"<title>" + cp1252Bytes + "</title>",
	"\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00x\x00>\x00",
	"<a href='javascript:x'>j</a><a href=mailto:x>m</a><a href=\"http://[::1\">b</a>",
	"<p>a\x00b\xff\xc3</p><a href=/a\tb>\r\n</a>",
}

func FuzzHTML(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "text/html")
	}
	f.Add([]byte(fuzzSeeds[2]), "text/html; charset=windows-1252")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		// A large token cap shared by both runs: the capped run must then
		// see exactly the tokens the uncapped one sees.
		const token = 1 << 20
		big := Options{MaxTextBytes: 1 << 30, MaxLinks: 1 << 30, MaxAnchorBytes: 32, MaxTitleBytes: 1 << 30, MaxMetas: 1 << 30, MaxTokenBytes: token}
		small := Options{MaxTextBytes: 40, MaxLinks: 3, MaxAnchorBytes: 32, MaxTitleBytes: 10, MaxMetas: 2, MaxTokenBytes: token}
		full, err := HTML(body, testDocURL, contentType, big)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := HTML(body, testDocURL, contentType, small)
		if err != nil {
			t.Fatal(err)
		}

		for _, s := range append(docStrings(full), docStrings(doc)...) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in output: %q", s)
			}
		}
		// Caps hold.
		if len(doc.Text) > small.MaxTextBytes || len(doc.Title) > small.MaxTitleBytes ||
			len(doc.Links)+doc.SkippedLinks > small.MaxLinks || len(doc.Metas) > small.MaxMetas {
			t.Fatalf("caps broken: text %d, title %d, links %d+%d skipped, metas %d",
				len(doc.Text), len(doc.Title), len(doc.Links), doc.SkippedLinks, len(doc.Metas))
		}
		for _, l := range full.Links {
			if len(l.Anchor) > small.MaxAnchorBytes || strings.Contains(l.URL, "#") ||
				!(strings.HasPrefix(l.URL, "http://") || strings.HasPrefix(l.URL, "https://")) {
				t.Fatalf("bad link %+v", l)
			}
		}
		// A capped result is a prefix of the uncapped one, and says so
		// when it is shorter.
		checkPrefix(t, "Text", doc.Text, full.Text, doc.Truncated.Has(CapText))
		checkPrefix(t, "Title", doc.Title, full.Title, doc.Truncated.Has(CapTitle))
		if len(doc.Links) > len(full.Links) {
			t.Fatalf("%d links capped, %d uncapped", len(doc.Links), len(full.Links))
		}
		for i, l := range doc.Links {
			if l != full.Links[i] {
				t.Fatalf("link %d: capped %+v, uncapped %+v", i, l, full.Links[i])
			}
		}
		if doc.Canonical != full.Canonical || doc.Lang != full.Lang || doc.Charset != full.Charset {
			t.Fatalf("caps changed canonical, lang or charset: %+v vs %+v", doc, full)
		}
	})
}

// checkPrefix fails unless capped is a prefix of full, equal to it unless
// the cap was reported.
func checkPrefix(t *testing.T, what, capped, full string, truncated bool) {
	t.Helper()
	if !strings.HasPrefix(full, capped) {
		t.Fatalf("%s: capped %q is not a prefix of %q", what, capped, full)
	}
	if !truncated && capped != full {
		t.Fatalf("%s: capped %q differs from %q without truncation reported", what, capped, full)
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add([]byte("caf\xc3\xa9 bar"), "text/plain")
	f.Add([]byte(cp1252Bytes), "text/plain; charset=windows-1252")
	f.Add([]byte(sjisBytes), "text/plain; charset=shift_jis")
	f.Add([]byte("\xfe\xff\x00a"), "text/plain")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		full := PlainText(body, contentType, Options{MaxTextBytes: 1 << 30})
		doc := PlainText(body, contentType, Options{MaxTextBytes: 20})
		if !utf8.ValidString(full.Text) || !utf8.ValidString(doc.Text) || len(doc.Text) > 20 {
			t.Fatalf("Text %q / %q: invalid UTF-8 or over the cap", doc.Text, full.Text)
		}
		checkPrefix(t, "Text", doc.Text, full.Text, doc.Truncated.Has(CapText))
	})
}

// FuzzTagAtom checks the extractor's fast tag-name reader against the
// tokenizer's own TagName.
func FuzzTagAtom(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("<DIV\x00><a/b><A\fx></TEMPLATE\n><svg:x><ForeignObject></p/>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		z := html.NewTokenizer(bytes.NewReader(body))
		for {
			switch z.Next() {
			case html.ErrorToken:
				return
			case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
				got := tagAtom(z.Raw())
				name, _ := z.TagName()
				if want := atom.Lookup(name); got != want {
					t.Fatalf("tagAtom(%q) = %v, TagName says %q (%v)", z.Raw(), got, name, want)
				}
			}
		}
	})
}
