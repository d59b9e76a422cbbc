package sitemap

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkParse parses a full 50,000-entry sitemap (every optional field
// present), as is and gzip-compressed, and a 50,000-line text sitemap, and
// reports entries per second. MB/s counts the decompressed document.
func BenchmarkParse(b *testing.B) {
	xmlDoc := urlset(MaxEntries)
	textDoc := textSitemap(MaxEntries)
	for _, bc := range []struct {
		name  string
		doc   []byte
		plain int
	}{
		{"urlset", xmlDoc, len(xmlDoc)},
		{"urlset-gzip", gz(b, xmlDoc), len(xmlDoc)},
		{"text", textDoc, len(textDoc)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.plain))
			b.ReportAllocs()
			for b.Loop() {
				res, err := Parse(bytes.NewReader(bc.doc), Options{}, func(Entry) error { return nil })
				if err != nil || res.Entries != MaxEntries || res.Cut {
					b.Fatalf("%+v, %v", res, err)
				}
			}
			b.ReportMetric(float64(b.N)*MaxEntries/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkParseLocsOnly parses a sitemap of 200 entries with a <loc> and
// nothing else, the sitemap crawlbench's generated web serves each origin
// (issue 26: what a crawl's sitemaps cost per entry, an absent <lastmod>
// included).
func BenchmarkParseLocsOnly(b *testing.B) {
	const n = 200
	var doc bytes.Buffer
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&doc, "<url><loc>http://g1.test/p/%d</loc></url>\n", i)
	}
	doc.WriteString("</urlset>\n")
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Parse(bytes.NewReader(doc.Bytes()), Options{}, func(Entry) error { return nil })
		if err != nil || res.Entries != n {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}
