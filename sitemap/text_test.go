package sitemap

import (
	"strings"
	"testing"
)

// sitemaps.org text format: one URL per line. Lines end at LF, CR or CRLF;
// a UTF-8 BOM is skipped; blank and whitespace-only lines are not entries;
// each line is trimmed of ASCII whitespace; the last line needs no newline.
func TestParseTextLines(t *testing.T) {
	doc := "\ufeffhttp://example.com/1\r\n" +
		"\r\n" +
		"  \t http://example.com/2 \t \r\n" +
		"http://example.com/3\r" +
		"http://example.com/4\n" +
		"\n\n   \n\t\n" +
		"\r\r\n\n" +
		"http://example.com/5"
	got, res, err := parseAll(t, []byte(doc), Options{})
	want := "http://example.com/1 http://example.com/2 http://example.com/3 http://example.com/4 http://example.com/5"
	if err != nil || strings.Join(locs(got), " ") != want || res.Skipped != 0 || res.Kind != Text {
		t.Errorf("%q, %+v, %v; want %s", locs(got), res, err, want)
	}
}

// A text sitemap that is not UTF-8 (sitemaps.org: "The text file must use
// UTF-8 encoding") has its non-UTF-8 lines skipped, the others delivered.
func TestParseTextInvalidUTF8(t *testing.T) {
	doc := "http://example.com/caf\xe9\nhttp://example.com/caf\xc3\xa9\n"
	got, res, err := parseAll(t, []byte(doc), Options{})
	if err != nil || len(got) != 1 || got[0].Loc != "http://example.com/café" || res.Skipped != 1 {
		t.Errorf("%q, %+v, %v; want the UTF-8 line only", locs(got), res, err)
	}
}

// A text sitemap holds nothing but URLs ("no header or footer
// information"); anything else on a line makes that line not a URL, which
// is skipped. Internal spaces are left for the crawler's URL parser.
func TestParseTextOtherLines(t *testing.T) {
	doc := "# my sitemap\nhttp://example.com/a\nSitemap: http://example.com/s.xml\n<a href=\"http://example.com/\">x</a>\n"
	got, res, err := parseAll(t, []byte(doc), Options{})
	if err != nil || len(got) != 1 || res.Skipped != 3 {
		t.Errorf("%q, %+v, %v; want 1 entry, 3 skipped", locs(got), res, err)
	}
}
