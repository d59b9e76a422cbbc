package extract_test

import (
	"fmt"

	"github.com/fractle/mandelbot/internal/extract"
)

func ExampleHTML() {
	body := []byte(`<!doctype html><html lang="en">
<head><title>Polite  crawling</title><meta name="robots" content="noindex"></head>
<body><h1>Rules</h1><p>Read <a href="/robots.txt#top">the <b>rules</b></a> first.</p>
<p><a href="https://other.example/" rel="nofollow"><img src="x.png" alt="Elsewhere"></a>
<a href="mailto:webmaster@example.com">Write to us</a></p></body></html>`)

	doc, err := extract.HTML(body, "https://example.com/docs/", "text/html; charset=utf-8", extract.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("title %q, lang %s, charset %s\n", doc.Title, doc.Lang, doc.Charset)
	fmt.Printf("text %q\n", doc.Text)
	for _, l := range doc.Links {
		fmt.Printf("link %s %q nofollow=%v\n", l.URL, l.Anchor, l.NoFollow)
	}
	fmt.Printf("skipped %d, metas %v\n", doc.SkippedLinks, doc.Metas)
	// Output:
	// title "Polite crawling", lang en, charset utf-8
	// text "Rules Read the rules first. Write to us"
	// link https://example.com/robots.txt "the rules" nofollow=false
	// link https://other.example/ "Elsewhere" nofollow=true
	// skipped 1, metas [{robots noindex}]
}
