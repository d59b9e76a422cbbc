package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// testDocURL is the URL the test documents are "fetched" from.
const testDocURL = "https://example.com/dir/page.html"

// mustHTML extracts body as a text/html page at testDocURL.
func mustHTML(t testing.TB, body string, opts Options) Document {
	t.Helper()
	doc, err := HTML([]byte(body), testDocURL, "text/html; charset=utf-8", opts)
	if err != nil {
		t.Fatalf("HTML(%q): %v", body, err)
	}
	return doc
}

func TestTextBufCollapsesAndCaps(t *testing.T) {
	tests := []struct {
		name string
		in   []string // pieces written, "|" meaning a block boundary
		max  int
		want string
		full bool
	}{
		{"collapse runs of ASCII whitespace", []string{" a \t\n\r\f b  "}, 100, "a b", false},
		{"no-break space collapses", []string{"a\u00a0\u00a0b"}, 100, "a b", false},
		{"control characters collapse", []string{"a\x01\x7fb"}, 100, "a b", false},
		{"NUL is dropped", []string{"a\x00b"}, 100, "ab", false},
		{"Unicode spaces other than NBSP are kept", []string{"a\u2003b"}, 100, "a\u2003b", false},
		{"boundary separates words", []string{"a", "|", "b"}, 100, "a b", false},
		{"no boundary, no space", []string{"a", "b"}, 100, "ab", false},
		{"leading and trailing boundaries vanish", []string{"|", "a", "|"}, 100, "a", false},
		{"invalid UTF-8 becomes U+FFFD per byte", []string{"a\xff\xfeb"}, 100, "a\ufffd\ufffdb", false},
		{"exact fit is not truncation", []string{"abc"}, 3, "abc", false},
		{"cap cuts at a character boundary", []string{"ab\u00e9"}, 3, "ab", true},
		{"nothing after the cap, even if it would fit", []string{"abcd", "e"}, 3, "abc", true},
		{"the separator counts", []string{"ab", "|", "c"}, 3, "ab", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := textBuf{max: tc.max}
			for _, p := range tc.in {
				if p == "|" {
					b.brk()
				} else {
					b.write([]byte(p))
				}
			}
			if got := b.String(); got != tc.want || b.full != tc.full {
				t.Errorf("got %q full=%v, want %q full=%v", got, b.full, tc.want, tc.full)
			}
		})
	}
}

// The package comment's rules for visible text, each with a page.
func TestHTMLVisibleText(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"block elements separate words (brief: <p>a</p><p>b</p>)", "<p>a</p><p>b</p>", "a b"},
		{"inline elements do not", "<p><b>a</b>b<i>c</i></p>", "abc"},
		{"br separates", "a<br>b<br/>c", "a b c"},
		{"table cells separate", "<table><tr><td>a</td><td>b</td></tr><tr><th>c</th></tr></table>", "a b c"},
		{"list items and headings separate", "<h1>t</h1><ul><li>x</li><li>y</li></ul>", "t x y"},
		{"whitespace collapsed and trimmed", "  <div>\n\t one \r\n  two  </div>  ", "one two"},
		{"entities decoded", "<p>a&amp;b &lt;c&gt; &eacute; &#233; &#x1F600;</p>", "a&b <c> é é 😀"},
		{"nbsp entity is a space", "a&nbsp;&nbsp;b", "a b"},
		{"script excluded", "a<script>var x = 1;</script>b", "ab"},
		{"style excluded", "<style>p{color:red}</style>text", "text"},
		{"template content is inert", "a<template><p>hidden</p><template>deeper</template>still</template>b", "ab"},
		{"iframe fallback excluded", "a<iframe>fallback</iframe>b", "a b"},
		{"noembed and noframes excluded", "a<noembed>x</noembed><noframes>y</noframes>b", "ab"},
		{"noscript content kept: no scripts run", "a <noscript><p>Enable JS</p></noscript>", "a Enable JS"},
		{"title is not body text", "<title>T</title><p>body</p>", "body"},
		{"head metadata has no text", "<head>\n<meta charset=utf-8>\n<link rel=x href=y>\n</head>body", "body"},
		{"comments excluded and do not separate", "a<!-- c -->b<!-->c", "abc"},
		{"textarea content is visible, as text", "<textarea>x <b>y</b></textarea>", "x <b>y</b>"},
		{"xmp content is visible, as text", "<xmp><a href=x>z</a></xmp>", "<a href=x>z</a>"},
		{"plaintext runs to the end", "a<plaintext></plaintext><p>b", "a </plaintext><p>b"},
		{"SVG text is visible", "<svg><text>drawn</text></svg>", "drawn"},
		{"SVG title, desc, style and script are not", "<svg><title>tip</title><desc>d</desc><style>s</style><script>x</script><text>t</text></svg>", "t"},
		{"SVG style is not raw text: markup after it is read", "<svg><style><![CDATA[a{}]]></style></svg><p>after", "after"},
		{"CDATA in SVG is text", "<svg><text><![CDATA[cd<ata]]></text></svg>", "cd<ata"},
		{"CDATA outside foreign content is a comment", "<p><![CDATA[x]]>y</p>", "y"},
		{"a breakout tag ends SVG", "<svg><title>tip</title><p>shown</p><title>T2</title>", "shown"},
		{"NUL in text is dropped, as the tree builder does", "a\x00b", "ab"},
		{"alt text is not visible text", `<img alt="picture">word`, "word"},
		{"CRLF in text is whitespace", "a\r\nb", "a b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustHTML(t, tc.body, Options{})
			if doc.Text != tc.want {
				t.Errorf("Text = %q, want %q", doc.Text, tc.want)
			}
		})
	}
}

func TestHTMLTitle(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"whitespace collapsed (brief)", "<title>\n  Hello \t World\n</title>", "Hello World"},
		{"entities decoded", "<title>Q&amp;A &ndash; caf&eacute;</title>", "Q&A – café"},
		{"markup in title is text", "<title>a <b>b</b></title>", "a <b>b</b>"},
		{"first title wins", "<title>one</title><title>two</title>", "one"},
		{"title inside SVG ignored (brief)", "<svg><title>icon</title></svg><title>page</title>", "page"},
		{"title inside MathML ignored", "<math><title>m</title></math><title>page</title>", "page"},
		{"title inside template ignored", "<template><title>t</title></template><title>page</title>", "page"},
		{"title in body still counts", "<body><p>x</p><title>late</title>", "late"},
		{"no title", "<p>x</p>", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustHTML(t, tc.body, Options{}).Title; got != tc.want {
				t.Errorf("Title = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestHTMLTextCap(t *testing.T) {
	body := "<p>" + strings.Repeat("word ", 100) + "</p>"
	full := mustHTML(t, body, Options{})
	for _, max := range []int{1, 7, 64, len(full.Text) - 1} {
		doc := mustHTML(t, body, Options{MaxTextBytes: max})
		if len(doc.Text) > max || !strings.HasPrefix(full.Text, doc.Text) || !doc.Truncated.Has(CapText) {
			t.Errorf("MaxTextBytes %d: Text %q (len %d), Truncated %q; want a prefix of at most %d bytes and CapText",
				max, doc.Text, len(doc.Text), doc.Truncated, max)
		}
	}
	if exact := mustHTML(t, body, Options{MaxTextBytes: len(full.Text)}); exact.Text != full.Text || exact.Truncated != 0 {
		t.Errorf("cap equal to the text: Text %q, Truncated %q; want all of it, nothing truncated", exact.Text, exact.Truncated)
	}
}

func TestHTMLTitleCap(t *testing.T) {
	// An unclosed <title> swallows the page, as in a browser; the cap holds.
	doc := mustHTML(t, "<title>"+strings.Repeat("é", 1000), Options{MaxTitleBytes: 11})
	if doc.Title != strings.Repeat("é", 5) || !doc.Truncated.Has(CapTitle) {
		t.Errorf("Title %q, Truncated %q; want 5 × é and CapTitle", doc.Title, doc.Truncated)
	}
}

func TestHTMLInvalidUTF8(t *testing.T) {
	// brief: invalid UTF-8 input replaced with U+FFFD. The header says
	// UTF-8, so no sniffing changes the encoding.
	body := "<title>t\xffx</title><p>a\xc3(b</p><a href=\"/p\xfe\" rel=x>l\xe2\x82</a><meta name=\"n\xff\" content=\"c\xff\">"
	doc := mustHTML(t, body, Options{})
	for _, s := range docStrings(doc) {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 in output: %q", s)
		}
	}
	if doc.Title != "t\ufffdx" || doc.Text != "a\ufffd(b l\ufffd\ufffd" {
		t.Errorf("Title %q, Text %q; want replacement characters in place of the bad bytes", doc.Title, doc.Text)
	}
}

// docStrings lists every string of doc, for validity checks.
func docStrings(doc Document) []string {
	s := []string{doc.Title, doc.Text, doc.Canonical, doc.Lang, doc.Charset}
	for _, l := range doc.Links {
		s = append(s, l.URL, l.Raw, l.Anchor)
	}
	for _, m := range doc.Metas {
		s = append(s, m.Name, m.Content)
	}
	return s
}
