package extract

import (
	"fmt"
	"strings"
	"testing"
)

// benchPage returns a page shaped like a real article page of about 50 KB:
// a head of metas and link elements, an inline style sheet and scripts, a
// navigation bar, paragraphs with inline markup and links, and a footer.
func benchPage() []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8">
<title>An article about crawling the web politely | Example News</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="How a polite crawler reads robots.txt, honours robot tags and pauses a site that answers 503.">
<meta name="robots" content="index, follow, max-snippet:-1">
<meta property="og:title" content="An article about crawling"><meta property="og:type" content="article">
<link rel="canonical" href="https://news.example.com/2024/05/polite-crawling">
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico">
<style>`)
	b.WriteString(strings.Repeat(".article p{margin:0 0 1em;line-height:1.5}.nav a{color:#333;text-decoration:none}\n", 30))
	b.WriteString("</style>\n<script>")
	b.WriteString(strings.Repeat(`window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}if(a</b){document.write("<a href='/x'>x</a>")}`+"\n", 30))
	b.WriteString("</script></head>\n<body class=\"article-page\"><header><nav class=\"nav\"><ul>\n")
	for i := range 40 {
		fmt.Fprintf(&b, `<li><a href="/section/%d" class="nav-link">Section %d</a></li>`+"\n", i, i)
	}
	b.WriteString("</ul></nav></header>\n<main><article><h1>An article about crawling the web politely</h1>\n")
	for i := 0; b.Len() < 46_000; i++ {
		fmt.Fprintf(&b, `<p>Paragraph %d. A polite crawler fetches <em>robots.txt</em> before anything else, `+
			`keeps it for up to 48&nbsp;hours and reads <a href="https://other.example/ref/%d?utm=x#sec">the rules</a> `+
			`for its own user agent first. It pauses an origin that answers <code>503</code>, `+
			`and it never requests a URL the rules disallow &mdash; see <a href="../related/%d" rel="nofollow">this note</a>.</p>`+"\n", i, i, i)
		if i%5 == 4 {
			fmt.Fprintf(&b, `<figure><a href="/img/%d.jpg"><img src="/img/%d-small.jpg" alt="Figure %d"></a><figcaption>Figure %d</figcaption></figure>`+"\n", i, i, i, i)
		}
	}
	b.WriteString("</article></main>\n<footer><p>&copy; Example News</p><ul>")
	for i := range 20 {
		fmt.Fprintf(&b, `<li><a href="https://news.example.com/about/%d">About %d</a></li>`, i, i)
	}
	b.WriteString("</ul></footer></body></html>\n")
	return []byte(b.String())
}

// BenchmarkHTML measures extraction throughput on a ~50 KB article page
// (go test -run '^$' -bench HTML ./internal/extract).
func BenchmarkHTML(b *testing.B) {
	page := benchPage()
	for _, bc := range []struct{ name, contentType string }{
		{"utf-8", "text/html; charset=utf-8"},
		// The same bytes through the windows-1252 decoder.
		{"windows-1252", "text/html; charset=windows-1252"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				doc, err := HTML(page, "https://news.example.com/2024/05/polite-crawling", bc.contentType, Options{})
				if err != nil || len(doc.Links) == 0 {
					b.Fatalf("HTML: %d links, %v", len(doc.Links), err)
				}
			}
		})
	}
}

func TestBenchPageIsRealistic(t *testing.T) {
	// Keep the benchmark honest: a page of the intended size, read whole.
	page := benchPage()
	doc, err := HTML(page, "https://news.example.com/2024/05/polite-crawling", "text/html; charset=utf-8", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(page); n < 45_000 || n > 55_000 {
		t.Errorf("bench page is %d bytes, want about 50 KB", n)
	}
	if doc.Truncated != 0 || len(doc.Links) < 100 || doc.Canonical == "" || len(doc.Metas) != 3 ||
		!strings.HasSuffix(doc.Text, "see this note.") || strings.Contains(doc.Text, "Example News") { // the footer is chrome (issue 11)
		t.Errorf("bench page: Truncated %q, %d links, canonical %q, %d metas, text ends %q",
			doc.Truncated, len(doc.Links), doc.Canonical, len(doc.Metas), doc.Text[max(0, len(doc.Text)-20):])
	}
}

// BenchmarkHTMLSmallBuffers measures extraction of a small page (about 3 KB, the size of the
// pages crawlbench serves) with a Buffers reused page after page, as the crawler extracts
// (go test -run '^$' -bench HTMLSmallBuffers -benchmem ./internal/extract).
func BenchmarkHTMLSmallBuffers(b *testing.B) {
	var s strings.Builder
	s.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page 17 of origin 3</title></head><body><h1>Page 17</h1>`)
	for i := range 20 {
		fmt.Fprintf(&s, `<p>Some words of paragraph %d, with <a href="/p/%d.html">a link to page %d</a>.</p>`+"\n", i, i*7, i*7)
	}
	s.WriteString(`</body></html>`)
	page := []byte(s.String())
	var buf Buffers
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := HTML(page, "https://origin3.example/p/17.html", "text/html; charset=utf-8", Options{Buffers: &buf})
		if err != nil || len(doc.Links) != 20 {
			b.Fatalf("HTML: %d links, %v", len(doc.Links), err)
		}
	}
}
