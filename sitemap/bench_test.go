package sitemap

import (
	"bytes"
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
