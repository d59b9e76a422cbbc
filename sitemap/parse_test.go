package sitemap

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The sitemaps.org example urlset, with every optional field.
const sampleURLSet = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <url>
      <loc>http://www.example.com/</loc>
      <lastmod>2005-01-01</lastmod>
      <changefreq>monthly</changefreq>
      <priority>0.8</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=73&amp;desc=vacation_new_zealand</loc>
      <lastmod>2004-12-23</lastmod>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=74&amp;desc=vacation_newfoundland</loc>
      <lastmod>2004-12-23T18:00:15+00:00</lastmod>
      <priority>0.3</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=83&amp;desc=vacation_usa</loc>
      <lastmod>2004-11-23</lastmod>
   </url>
</urlset>
`

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

var sampleURLSetEntries = []Entry{
	{Kind: URLSet, Loc: "http://www.example.com/", LastMod: date(2005, 1, 1), ChangeFreq: "monthly", Priority: 0.8},
	{Kind: URLSet, Loc: "http://www.example.com/catalog?item=12&desc=vacation_hawaii", ChangeFreq: "weekly", Priority: -1},
	{Kind: URLSet, Loc: "http://www.example.com/catalog?item=73&desc=vacation_new_zealand", LastMod: date(2004, 12, 23), ChangeFreq: "weekly", Priority: -1},
	{Kind: URLSet, Loc: "http://www.example.com/catalog?item=74&desc=vacation_newfoundland", LastMod: time.Date(2004, 12, 23, 18, 0, 15, 0, time.UTC), Priority: 0.3},
	{Kind: URLSet, Loc: "http://www.example.com/catalog?item=83&desc=vacation_usa", LastMod: date(2004, 11, 23), Priority: -1},
}

// The sitemaps.org example sitemap index.
const sampleIndex = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <sitemap>
      <loc>http://www.example.com/sitemap1.xml.gz</loc>
      <lastmod>2004-10-01T18:23:17+00:00</lastmod>
   </sitemap>
   <sitemap>
      <loc>http://www.example.com/sitemap2.xml.gz</loc>
      <lastmod>2005-01-01</lastmod>
      <priority>0.9</priority><changefreq>daily</changefreq>
   </sitemap>
</sitemapindex>
`

var sampleIndexEntries = []Entry{
	{Kind: Index, Loc: "http://www.example.com/sitemap1.xml.gz", LastMod: time.Date(2004, 10, 1, 18, 23, 17, 0, time.UTC), Priority: -1},
	// <priority> and <changefreq> are not fields of a sitemap index entry.
	{Kind: Index, Loc: "http://www.example.com/sitemap2.xml.gz", LastMod: date(2005, 1, 1), Priority: -1},
}

// The sitemaps.org example text sitemap.
const sampleText = "http://www.example.com/catalog?item=1\nhttp://www.example.com/catalog?item=11\n"

var sampleTextEntries = []Entry{
	{Kind: Text, Loc: "http://www.example.com/catalog?item=1", Priority: -1},
	{Kind: Text, Loc: "http://www.example.com/catalog?item=11", Priority: -1},
}

// Each format of sitemaps.org, as is and gzip-compressed, yields its entries
// in document order; gzip is detected from the bytes.
func TestParseFormats(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		kind Kind
		want []Entry
	}{
		{"urlset", sampleURLSet, URLSet, sampleURLSetEntries},
		{"sitemapindex", sampleIndex, Index, sampleIndexEntries},
		{"text", sampleText, Text, sampleTextEntries},
	} {
		for _, gzipped := range []bool{false, true} {
			name, doc := tc.name, []byte(tc.doc)
			if gzipped {
				name, doc = name+"/gzip", gz(t, doc)
			}
			t.Run(name, func(t *testing.T) {
				got, res, err := parseAll(t, doc, Options{})
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("entries (-want +got):\n%s", diff)
				}
				want := Result{Kind: tc.kind, Gzip: gzipped, Entries: len(tc.want)}
				if res != want {
					t.Errorf("Result = %+v, want %+v", res, want)
				}
			})
		}
	}
}

// Empty input is not an error: no format, no entries. A BOM or whitespace
// alone is empty too, and so is an empty gzip stream.
func TestParseEmpty(t *testing.T) {
	for name, doc := range map[string][]byte{
		"empty":      nil,
		"whitespace": []byte(" \r\n\t\n"),
		"bom":        []byte("\ufeff"),
		"bom+spaces": []byte("\ufeff\n\n"),
		"gzip empty": gz(t, nil),
	} {
		t.Run(name, func(t *testing.T) {
			got, res, err := parseAll(t, doc, Options{})
			if err != nil || len(got) != 0 || res.Kind != Unknown || res.Cut {
				t.Errorf("got %d entries, %+v, %v; want none, Kind unknown, nil", len(got), res, err)
			}
		})
	}
}

// An HTML page served in place of a sitemap (a soft 404, a login wall) is
// XML-looking: it fails with ErrNotSitemap at its root element and delivers
// nothing. HTML that does not start with '<' is read as a text sitemap whose
// lines are all skipped.
func TestParseHTML(t *testing.T) {
	for _, doc := range []string{
		"<!DOCTYPE html>\n<html lang=en><head><title>Not found</title></head><body><a href=/>home</a></body></html>",
		"<html><body><url><loc>http://example.com/</loc></url></body></html>",
		"\ufeff  <HTML>",
		`<?xml version="1.0"?><rss version="2.0"><channel><link>http://example.com/</link></channel></rss>`,
	} {
		got, res, err := parseAll(t, []byte(doc), Options{})
		if !errors.Is(err, ErrNotSitemap) || errors.Is(err, ErrMalformed) {
			t.Errorf("%.30q: error %v, want ErrNotSitemap only", doc, err)
		}
		if len(got) != 0 || res.Kind != Unknown {
			t.Errorf("%.30q: %d entries, Kind %v; want none, unknown", doc, len(got), res.Kind)
		}
	}

	got, res, err := parseAll(t, []byte("Not Found\n\n<p>The page is gone.</p>\n"), Options{})
	if err != nil || len(got) != 0 || res.Kind != Text || res.Skipped != 2 {
		t.Errorf("text-looking HTML: %d entries, %+v, %v; want 0 entries, Text, 2 skipped", len(got), res, err)
	}
}

// XML entities are decoded in <loc>: the five predefined ones, character
// references, CDATA. Unknown entities and a bare '&' (the commonest fault
// of hand-made sitemaps) are kept as written. Entities declared in a DTD are
// never expanded, so entity bombs cost nothing.
func TestParseEntities(t *testing.T) {
	for _, tc := range []struct {
		loc  string
		want string // "" means skipped
	}{
		{"http://example.com/?a=1&amp;b=2", "http://example.com/?a=1&b=2"},
		{"http://example.com/?a=1&#38;b=2&#x26;c=3", "http://example.com/?a=1&b=2&c=3"},
		{"http://example.com/&apos;q&apos;/&quot;d&quot;/&lt;&gt;", `http://example.com/'q'/"d"/<>`},
		{"http://example.com/caf&#xE9;", "http://example.com/café"},
		{"<![CDATA[http://example.com/?a=1&b=2]]>", "http://example.com/?a=1&b=2"},
		{"http://example.com/<![CDATA[?a=<b>]]>", "http://example.com/?a=<b>"},
		{"http://example.com/a<!-- comment -->b", "http://example.com/ab"},
		{"http://example.com/?a=1&b=2", "http://example.com/?a=1&b=2"},
		{"http://example.com/&nbsp;x", "http://example.com/&nbsp;x"},
		{"&custom;", ""},
	} {
		doc := `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY custom "http://example.com/evil">]>` +
			"<urlset><url><loc>" + tc.loc + "</loc></url></urlset>"
		got, res, err := parseAll(t, []byte(doc), Options{})
		if err != nil {
			t.Errorf("%q: %v", tc.loc, err)
			continue
		}
		switch {
		case tc.want == "" && res.Skipped != 1:
			t.Errorf("%q: got %q, want it skipped", tc.loc, locs(got))
		case tc.want != "" && (len(got) != 1 || got[0].Loc != tc.want):
			t.Errorf("%q: got %q (skipped %d), want %q", tc.loc, locs(got), res.Skipped, tc.want)
		}
	}
}

// Namespaces may be absent or odd; an entry's fields are its direct children
// in its own namespace or none, so extension elements such as <image:loc>
// never stand in for <loc>.
func TestParseNamespaces(t *testing.T) {
	const page = "http://example.com/page"
	for _, tc := range []struct {
		name    string
		doc     string
		want    []string
		skipped int
	}{
		{"absent", `<urlset><url><loc>` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"sitemaps.org 0.9", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"google 0.84", `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"odd", `<urlset xmlns="urn:whatever"><url><loc>` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"prefixed", `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>` + page + `</sm:loc></sm:url></sm:urlset>`, []string{page}, 0},
		{"undeclared prefix", `<sm:urlset><sm:url><sm:loc>` + page + `</sm:loc></sm:url></sm:urlset>`, []string{page}, 0},
		{"loc in no namespace", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc xmlns="">` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"image extension first", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
			`<url><image:image><image:loc>http://example.com/img.png</image:loc></image:image><loc>` + page + `</loc></url></urlset>`, []string{page}, 0},
		{"xhtml alternate", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` +
			`<url><loc>` + page + `</loc><xhtml:link rel="alternate" hreflang="de" href="http://example.com/de"/></url></urlset>`, []string{page}, 0},
		{"foreign loc only", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
			`<url><image:loc>http://example.com/img.png</image:loc></url></urlset>`, nil, 1},
		{"foreign url element", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><x:url xmlns:x="urn:x"><loc>` + page + `</loc></x:url></urlset>`, nil, 0},
		{"url not a child of the root", `<urlset><group><url><loc>` + page + `</loc></url></group></urlset>`, nil, 0},
		// Prefixes are compared as written: the same namespace under another
		// prefix is not recognised (no known sitemap does this).
		{"same namespace, other prefix", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><s:loc>` + page + `</s:loc></url></urlset>`, nil, 1},
		{"upper-case names are other names", `<urlset><URL><LOC>` + page + `</LOC></URL><url><LOC>` + page + `</LOC></url></urlset>`, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res, err := parseAll(t, []byte(tc.doc), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, locs(got), cmp.Comparer(func(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") })); diff != "" {
				t.Errorf("locs (-want +got):\n%s", diff)
			}
			if res.Skipped != tc.skipped {
				t.Errorf("Skipped = %d, want %d", res.Skipped, tc.skipped)
			}
		})
	}
}

// <loc> text is trimmed of ASCII whitespace only (the brief; sitemaps.org
// examples indent freely). A no-break space is not ASCII whitespace: it stays,
// and the location is then not a URL.
func TestParseLocWhitespace(t *testing.T) {
	for _, tc := range []struct {
		loc  string
		want string // "" means skipped
	}{
		{" http://example.com/a ", "http://example.com/a"},
		{"\n\t\r\n  http://example.com/b\n\t\t", "http://example.com/b"},
		{"  <![CDATA[ http://example.com/d ]]>  ", "http://example.com/d"},
		{"\u00a0http://example.com/e", ""},
		{"\u0085http://example.com/f", ""},
		{"   ", ""},
		{"", ""},
	} {
		doc := "<urlset><url><loc>" + tc.loc + "</loc></url></urlset>"
		got, res, err := parseAll(t, []byte(doc), Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.loc, err)
		}
		switch {
		case tc.want == "" && (len(got) != 0 || res.Skipped != 1):
			t.Errorf("%q: got %q, want it skipped", tc.loc, locs(got))
		case tc.want != "" && (len(got) != 1 || got[0].Loc != tc.want):
			t.Errorf("%q: got %q, want %q", tc.loc, locs(got), tc.want)
		}
	}
}

// "A URL that cannot be parsed, found in a sitemap, is counted and skipped"
// (issue 3): the entries around it are still delivered, in order.
func TestParseBadURLsSkipped(t *testing.T) {
	bad := []string{
		"",                           // empty
		"/relative/path",             // not absolute
		"www.example.com/no-scheme",  // no scheme
		"ftp://example.com/file",     // not http(s)
		"mailto:someone@example.com", // not http(s)
		"javascript:alert(1)",        // not http(s)
		"http://",                    // no host
		"http:/example.com/",         // no host
		"http://[::1/",               // net/url refuses it
		"http://exa mple.com/",       // net/url refuses it
		"http://example.com/" + strings.Repeat("a", MaxURLLength), // too long
	}
	// XML 1.0 cannot hold control bytes at all (that is a syntax error); a
	// text sitemap can.
	textOnly := []string{"http://example.com/\x01", "http://example.com/\x7f"}

	var xmlDoc, textDoc strings.Builder
	xmlDoc.WriteString("<urlset>")
	for i, loc := range bad {
		xmlDoc.WriteString("<url><loc>" + xmlEscape(loc) + "</loc></url>")
		textDoc.WriteString(loc + "\n")
		if i%4 == 0 {
			xmlDoc.WriteString("<url><loc>http://example.com/ok</loc></url>")
			textDoc.WriteString("http://example.com/ok\n")
		}
	}
	for _, loc := range textOnly {
		textDoc.WriteString(loc + "\n")
	}
	xmlDoc.WriteString("<url><lastmod>2020-01-01</lastmod></url>") // no <loc> at all
	xmlDoc.WriteString("</urlset>")

	for name, tc := range map[string]struct {
		doc     string
		skipped int
	}{
		"xml":  {xmlDoc.String(), len(bad) + 1},
		"text": {textDoc.String(), len(bad) - 1 + len(textOnly)}, // the empty line is blank, not an entry
	} {
		t.Run(name, func(t *testing.T) {
			got, res, err := parseAll(t, []byte(tc.doc), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Skipped != tc.skipped || len(got) != 3 {
				t.Errorf("Entries %d, Skipped %d; want 3, %d (got %q)", len(got), res.Skipped, tc.skipped, locs(got))
			}
		})
	}
}

// xmlEscape escapes the characters XML text cannot hold as they are.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Each field of an entry counts once: the first wins, as the protocol allows
// only one of each.
func TestParseFirstFieldWins(t *testing.T) {
	doc := `<urlset><url>
		<loc>http://example.com/first</loc><loc>http://example.com/second</loc>
		<lastmod>2001-01-01</lastmod><lastmod>2002-02-02</lastmod>
		<changefreq>daily</changefreq><changefreq>never</changefreq>
		<priority>0.1</priority><priority>0.9</priority>
	</url></urlset>`
	got, _, err := parseAll(t, []byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Kind: URLSet, Loc: "http://example.com/first", LastMod: date(2001, 1, 1), ChangeFreq: "daily", Priority: 0.1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Invalid optional fields are reported as absent; the entry is still
// delivered (sitemaps.org: only <loc> is required).
func TestParseInvalidOptionalFields(t *testing.T) {
	doc := `<urlset><url><loc>http://example.com/</loc>
		<lastmod>yesterday</lastmod><changefreq>sometimes</changefreq><priority>high</priority>
	</url></urlset>`
	got, res, err := parseAll(t, []byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Kind: URLSet, Loc: "http://example.com/", Priority: -1}}
	if diff := cmp.Diff(want, got); diff != "" || res.Skipped != 0 {
		t.Errorf("skipped %d, entries (-want +got):\n%s", res.Skipped, diff)
	}
}

// A nil callback counts entries without delivering them.
func TestParseNilCallback(t *testing.T) {
	res, err := Parse(strings.NewReader(sampleURLSet), Options{}, nil)
	if err != nil || res.Entries != 5 {
		t.Errorf("Parse = %+v, %v; want 5 entries", res, err)
	}
}

// A callback error stops parsing at once and comes back wrapped; the entry it
// refused counts as delivered.
func TestParseCallbackError(t *testing.T) {
	errEnough := errors.New("enough")
	for name, doc := range map[string]string{"xml": sampleURLSet, "text": sampleText + sampleText} {
		t.Run(name, func(t *testing.T) {
			calls := 0
			res, err := Parse(strings.NewReader(doc), Options{}, func(Entry) error {
				calls++
				if calls == 2 {
					return errEnough
				}
				return nil
			})
			if !errors.Is(err, errEnough) || errors.Is(err, ErrMalformed) {
				t.Errorf("error %v, want it to wrap the callback's error only", err)
			}
			if !strings.Contains(err.Error(), "callback") {
				t.Errorf("error %q does not name the callback", err)
			}
			if calls != 2 || res.Entries != 2 {
				t.Errorf("%d calls, Entries %d; want 2, 2", calls, res.Entries)
			}
		})
	}
}

// Documents declared in another encoding: ISO-8859-1 is converted exactly,
// US-ASCII is read as the UTF-8 subset it is, and anything else is refused
// (sitemaps.org: "Your Sitemap file must be UTF-8 encoded").
func TestParseDeclaredEncoding(t *testing.T) {
	body := "<urlset><url><loc>http://example.com/caf\xe9</loc></url></urlset>"
	for _, tc := range []struct {
		encoding string
		body     string
		want     string // "" means an ErrMalformed error
	}{
		{"UTF-8", "<urlset><url><loc>http://example.com/caf\xc3\xa9</loc></url></urlset>", "http://example.com/café"},
		{"utf8", "<urlset><url><loc>http://example.com/caf\xc3\xa9</loc></url></urlset>", "http://example.com/café"},
		{"ISO-8859-1", body, "http://example.com/café"},
		{"latin1", body, "http://example.com/café"},
		{"US-ASCII", "<urlset><url><loc>http://example.com/cafe</loc></url></urlset>", "http://example.com/cafe"},
		{"windows-1252", body, ""},
		{"Shift_JIS", body, ""},
	} {
		doc := `<?xml version="1.0" encoding="` + tc.encoding + `"?>` + tc.body
		got, _, err := parseAll(t, []byte(doc), Options{})
		switch {
		case tc.want == "" && !errors.Is(err, ErrMalformed):
			t.Errorf("%s: error %v, want ErrMalformed", tc.encoding, err)
		case tc.want != "" && (err != nil || len(got) != 1 || got[0].Loc != tc.want):
			t.Errorf("%s: %q, %v; want %q", tc.encoding, locs(got), err, tc.want)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Unknown: "unknown", URLSet: "urlset", Index: "sitemapindex", Text: "text", Kind(99): "unknown"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}
