package robotstag

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// Where a robots meta element counts. Seed 002 says "inside the head
// element"; this package decides (doc of Parser.FromHTML) that a meta
// element counts anywhere in the document, while text that is not an
// element (comments, raw text, inert template content) never counts.
func TestFromHTMLPlacement(t *testing.T) {
	for _, tt := range placementCases() {
		t.Run(tt.name, func(t *testing.T) {
			d := fromHTML(t, tt.doc)
			if d.NoIndex != tt.counts {
				t.Errorf("NoIndex = %v, want %v for\n%s", d.NoIndex, tt.counts, tt.doc)
			}
		})
	}
}

// placementCase is a document with one robots noindex meta somewhere.
type placementCase struct {
	name   string
	doc    string
	counts bool
}

func placementCases() []placementCase {
	return []placementCase{
		{"in head", htmlPage(noindexMeta), true},
		{"in head, no doctype or html", "<head>" + noindexMeta + "</head>", true},
		{"head implied", "<title>x</title>" + noindexMeta + "<p>text", true},
		{"after a tracking img in head", "<html><head><img src=/pixel.gif>" + noindexMeta + "</head><body></body></html>", true},
		{"after </head> before <body>", "<html><head></head>" + noindexMeta + "<body></body></html>", true},
		{"in body", "<html><head></head><body><p>text</p>" + noindexMeta + "</body></html>", true},
		{"deep in body", "<body><div><table><tr><td>" + noindexMeta + "</td></tr></table></div></body>", true},
		{"after </html>", htmlPage("") + noindexMeta, true},
		{"in svg", "<body><svg>" + noindexMeta + "</svg></body>", true},
		{"in noscript: Mandelbot runs no scripts", "<head><noscript>" + noindexMeta + "</noscript></head>", true},
		{"after noscript", "<head><noscript><link rel=stylesheet href=a.css></noscript>" + noindexMeta + "</head>", true},
		{"after a template", "<head><template><p>x</p></template>" + noindexMeta + "</head>", true},
		{"in a comment", "<head><!-- " + noindexMeta + " --></head>", false},
		{"in a script", "<head><script>document.write('" + noindexMeta + "')</script></head>", false},
		{"in a style", "<head><style>/* " + noindexMeta + " */</style></head>", false},
		{"in a title", "<head><title>" + noindexMeta + "</title></head>", false},
		{"in a textarea", "<body><textarea>" + noindexMeta + "</textarea></body>", false},
		{"in an xmp", "<body><xmp>" + noindexMeta + "</xmp></body>", false},
		{"after plaintext", "<body><plaintext>" + noindexMeta, false},
		{"in a template", "<head><template>" + noindexMeta + "</template></head>", false},
		{"in nested templates", "<template><template></template>" + noindexMeta + "</template>", false},
		{"escaped as text", "<body>&lt;meta name=\"robots\" content=\"noindex\"&gt;</body>", false},
		{"in an attribute", `<body><a title='` + noindexMeta + `'>x</a></body>`, false},
	}
}

// HTML attribute syntax as browsers read it: character references are
// decoded, quotes optional, the first of repeated attributes wins, and
// name and content may come in any order.
func TestFromHTMLAttributeSyntax(t *testing.T) {
	tests := []struct {
		name string
		meta string
		want string
	}{
		{"unquoted", `<meta name=robots content=noindex>`, "noindex"},
		{"single quotes", `<meta name='robots' content='noindex,nofollow'>`, "noindex, nofollow"},
		{"content first", `<meta content="noindex" name="robots">`, "noindex"},
		{"self-closing", `<meta name="robots" content="noindex"/>`, "noindex"},
		{"character reference", `<meta name="robots" content="no&#105;ndex, &#x6E;ofollow">`, "noindex, nofollow"},
		{"named reference", `<meta name="robots" content="noindex&comma;nofollow">`, "noindex, nofollow"},
		{"first name wins (robots)", `<meta name="robots" name="otherbot" content="noindex">`, "noindex"},
		{"first name wins (other)", `<meta name="otherbot" name="robots" content="noindex">`, "all"},
		{"first content wins", `<meta name="robots" content="nofollow" content="noindex">`, "nofollow"},
		{"upper-case attributes", `<META Name="Robots" Content="NoIndex">`, "noindex"},
		{"no content", `<meta name="robots">`, "all"},
		{"no name", `<meta content="noindex">`, "all"},
		{"http-equiv is not a name", `<meta http-equiv="X-Robots-Tag" content="noindex">`, "all"},
		{"property is not a name", `<meta property="robots" content="noindex">`, "all"},
		{"newline in value", "<meta name=\"robots\" content=\"nofollow,\n noindex\">", "noindex, nofollow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromHTML(t, htmlPage(tt.meta)).String(); got != tt.want {
				t.Errorf("%s => %q, want %q", tt.meta, got, tt.want)
			}
		})
	}
}

// Hostile input: nothing panics, cut tags do not count, and garbage around
// a good tag does not hide it.
func TestFromHTMLHostileInput(t *testing.T) {
	huge := strings.Repeat("A", 300<<10)
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"unterminated tag at EOF", `<head><meta name="robots" content="noindex`, "all"},
		{"unterminated attribute at EOF", `<head><meta name="robots" content=noindex`, "all"},
		{"unterminated comment hides the rest", `<head><!-- ` + noindexMeta, "all"},
		{"unterminated script hides the rest", `<head><script>` + noindexMeta, "all"},
		// "<meta" is an attribute name of the outer meta, as in browsers.
		{"stray < and >", `<<<>>><head><meta <meta name=robots content=nofollow>` + noindexMeta, "noindex, nofollow"},
		{"huge attribute before", `<head><meta name="x" content="` + huge + `">` + noindexMeta, "noindex"},
		{"huge unrelated tag", `<head><img src="data:image/png;base64,` + huge + `">` + noindexMeta, "noindex"},
		{"huge content", `<head><meta name="robots" content="nofollow,` + huge + `">`, "nofollow"},
		{"invalid UTF-8 around", "\xff\xfe<head>\xc3\x28" + noindexMeta + "\xed\xa0\x80</head>", "noindex"},
		{"invalid UTF-8 in content", "<meta name=robots content=\"\xffnoindex, nofollow\xc3\">", "all"},
		{"invalid UTF-8 element", "<meta name=robots content=\"\xff, noindex\">", "noindex"},
		{"NUL bytes", "<head>\x00<meta name=robots\x00 content=noindex>\x00", "all"},
		{"NUL in tag name", "<me\x00ta name=robots content=noindex>", "all"},
		{"VT is not HTML whitespace", "<meta\vname=robots content=noindex>", "all"},
		{"VT after template name", "<template\v>" + noindexMeta, "noindex"},
		{"FF and CR are", "<meta\fname=robots\rcontent=noindex>", "noindex"},
		{"end tag with spaces", "<template>x</template  >" + noindexMeta, "noindex"},
		{"end tag with slash", "<template>x</template/>" + noindexMeta, "noindex"},
		{"only garbage", "\x00\x01\x02<\x00>&#xFFFFFFFF;&", "all"},
		{"deep nesting", strings.Repeat("<div>", 10000) + noindexMeta, "noindex"},
		{"many templates unclosed", strings.Repeat("<template>", 1000) + noindexMeta, "all"},
		{"stray end templates", strings.Repeat("</template>", 1000) + noindexMeta, "noindex"},
		{"empty document", "", "all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromHTML(t, tt.doc).String(); got != tt.want {
				t.Errorf("=> %q, want %q", got, tt.want)
			}
		})
	}
}

// Limit: FromHTML reads at most maxBytes; a meta beyond the cap is not
// seen and a note says the document was cut.
func TestFromHTMLByteCap(t *testing.T) {
	pad := "<head>" + strings.Repeat("<!-- padding -->", 100) // 1606 bytes
	doc := pad + noindexMeta
	within := int64(len(doc))
	d, err := FromHTML(strings.NewReader(doc), agent, within)
	if err != nil || !d.NoIndex {
		t.Errorf("cap = len(doc): NoIndex = %v, err = %v", d.NoIndex, err)
	}
	if hasNote(d, "longer than") {
		t.Errorf("document that fits noted as cut: %q", d.Notes)
	}
	d, err = FromHTML(strings.NewReader(doc), agent, within-1)
	if err != nil || d.NoIndex {
		t.Errorf("cap = len(doc)-1: NoIndex = %v, err = %v; the cut tag must not count", d.NoIndex, err)
	}
	if !hasNote(d, fmt.Sprintf("longer than %d bytes", within-1)) {
		t.Errorf("cut not noted: %q", d.Notes)
	}

	// The default cap applies when maxBytes <= 0.
	big := strings.Repeat("x", int(DefaultMaxHTMLBytes)) + noindexMeta
	d, err = FromHTML(strings.NewReader(big), agent, 0)
	if err != nil || d.NoIndex || !hasNote(d, "longer than") {
		t.Errorf("default cap: NoIndex = %v, err = %v, notes %q", d.NoIndex, err, d.Notes)
	}
	d, err = FromHTML(strings.NewReader(noindexMeta+big), agent, -1)
	if err != nil || !d.NoIndex {
		t.Errorf("meta before the default cap: NoIndex = %v, err = %v", d.NoIndex, err)
	}
}

// The reader is consumed no further than the cap (plus one byte to learn
// whether there was more).
func TestFromHTMLReadsNoMoreThanCap(t *testing.T) {
	r := bytes.NewReader(bytes.Repeat([]byte("<p>"), 100000))
	if _, err := FromHTML(r, agent, 1000); err != nil {
		t.Fatal(err)
	}
	if read := r.Size() - int64(r.Len()); read > 1001 {
		t.Errorf("read %d bytes with a cap of 1000", read)
	}
}

// A failing reader: the error is wrapped (errors.Is works), and what was
// read before it is returned with it.
func TestFromHTMLReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("<head>"+noindexMeta+"<p>"), iotest.ErrReader(boom))
	d, err := FromHTML(r, agent, 0)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want wrapping %v", err, boom)
	}
	if !strings.Contains(err.Error(), "robotstag: read HTML") {
		t.Errorf("err %q does not name the operation", err)
	}
	if !d.NoIndex {
		t.Error("noindex read before the error was lost")
	}

	// For passes the error on and keeps the header's directives.
	h := map[string][]string{"X-Robots-Tag": {"nofollow"}}
	d, err = For("text/html", h, iotest.ErrReader(boom), agent)
	if !errors.Is(err, boom) || !d.NoFollow {
		t.Errorf("For: err = %v, NoFollow = %v", err, d.NoFollow)
	}
}

// One-byte reads (iotest.OneByteReader) and reads that return data with
// io.EOF (iotest.DataErrReader) see the same tags.
func TestFromHTMLOddReaders(t *testing.T) {
	doc := htmlPage(`<meta name="robots" content="noindex"><meta name="mandelbot" content="nofollow">`)
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(strings.NewReader(doc)),
		"data+EOF": iotest.DataErrReader(strings.NewReader(doc)),
		"half":     iotest.HalfReader(strings.NewReader(doc)),
	} {
		d, err := FromHTML(r, agent, 0)
		if err != nil || d.String() != "noindex, nofollow" {
			t.Errorf("%s: %q, %v", name, d.String(), err)
		}
	}
}

// For does not read the body of a non-HTML response, and accepts a nil
// body.
func TestForDoesNotReadNonHTMLBody(t *testing.T) {
	r := strings.NewReader(noindexMeta)
	d, err := For("application/pdf", nil, r, agent)
	if err != nil || d.NoIndex {
		t.Errorf("For(pdf): %q, %v", d.String(), err)
	}
	if r.Len() != len(noindexMeta) {
		t.Errorf("For read %d bytes of a PDF body", len(noindexMeta)-r.Len())
	}
	if d, err := For("text/html", nil, nil, agent); err != nil || d.String() != "all" {
		t.Errorf("For(nil body): %q, %v", d.String(), err)
	}
}
