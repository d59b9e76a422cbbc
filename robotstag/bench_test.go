package robotstag

import (
	"net/http"
	"strings"
	"testing"
)

// benchPage is a 100 KiB page with its robots meta in head and a long
// body, the case FromHTML reads in full.
func benchPage() string {
	head := `<!doctype html><html><head><meta charset="utf-8"><title>A page</title>` +
		`<meta name="description" content="Something"><meta name="robots" content="noindex, nofollow">` +
		`<script>var x = "<meta name=robots content=none>";</script></head><body>`
	para := `<p class="c">Some text with <a href="/a?b=c&amp;d=e">a link</a> and <b>bold</b> words.</p>` + "\n"
	return head + strings.Repeat(para, 100<<10/len(para)) + "</body></html>"
}

func BenchmarkFromHTML100KiB(b *testing.B) {
	page := benchPage()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		d, err := FromHTML(strings.NewReader(page), agent, 0)
		if err != nil || !d.NoIndex {
			b.Fatal(d, err)
		}
	}
}

func BenchmarkFromHeader(b *testing.B) {
	h := http.Header{"X-Robots-Tag": {"otherbot: noindex", "mandelbot: nofollow, noarchive", "unavailable_after: 25 Jun 2010 15:00:00 PST"}}
	for b.Loop() {
		if d := FromHeader(h, agent); !d.NoFollow {
			b.Fatal(d)
		}
	}
}
