package sitemap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusLinks is the shared corpus of real URLs, one file per site, one
// absolute URL a line (/work/shared/corpus/README.md).
const corpusLinks = "/work/shared/corpus/links"

// Every real URL of the corpus, written into a sitemap of its site as the
// protocol asks (XML-escaped in a urlset, as is in a text sitemap), comes
// back exactly as written, in order, none skipped.
func TestParseCorpusRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 111,824 URLs")
	}
	files, err := filepath.Glob(filepath.Join(corpusLinks, "*"))
	if err != nil || len(files) == 0 {
		t.Skipf("no corpus at %s", corpusLinks)
	}
	total := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		urls := strings.Fields(string(raw))
		total += len(urls)
		var xmlDoc, textDoc bytes.Buffer
		xmlDoc.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, u := range urls {
			xmlDoc.WriteString("\n  <url><loc>" + xmlEscape(u) + "</loc></url>")
			textDoc.WriteString(u + "\r\n")
		}
		xmlDoc.WriteString("\n</urlset>\n")
		for name, doc := range map[string][]byte{
			"xml":  xmlDoc.Bytes(),
			"text": textDoc.Bytes(),
		} {
			got, res, err := parseAll(t, doc, Options{})
			if err != nil || res.Skipped != 0 || strings.Join(locs(got), "\n") != strings.Join(urls, "\n") {
				t.Errorf("%s %s: %d of %d URLs back, %d skipped, %v", filepath.Base(file), name, len(got), len(urls), res.Skipped, err)
			}
		}
	}
	t.Logf("%d URLs of %d sites", total, len(files))
}
