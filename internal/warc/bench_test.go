package warc

import (
	"bytes"
	"testing"
)

// BenchmarkWriteExchange30KB writes a 30 KB HTML response and its request
// to a real file (no fsync: Sync is the caller's, once per commit group).
// SetBytes counts the response and request bytes, so MB/s is wire bytes
// archived per second.
func BenchmarkWriteExchange30KB(b *testing.B) {
	var page bytes.Buffer
	for page.Len() < 30<<10 {
		page.WriteString(`<div class="post"><h2>Walks near the river</h2><p>A bakery, a gallery and a library on the way; `)
		page.WriteString(`open every day but Monday, see the <a href="/hours">hours</a>.</p></div>` + "\n")
	}
	ex := Exchange{
		TargetURI: "http://example.test/walks/river",
		IP:        "127.0.0.1",
		Request:   httpRequest("/walks/river", "Accept-Encoding: gzip, br, zstd"),
		Response:  httpResponse("200 OK", page.Bytes()[:30<<10], "Content-Type: text/html; charset=utf-8", `ETag: "abc"`),
	}
	w, _ := newTestWriter(b, Options{Dir: b.TempDir()})
	defer w.Close()
	b.SetBytes(int64(len(ex.Request) + len(ex.Response)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.WriteExchange(ex); err != nil {
			b.Fatal(err)
		}
	}
}
