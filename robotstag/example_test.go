package robotstag_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fractle/mandelbot/robotstag"
)

// A crawler applies the whole rule to each fetched response.
func ExampleFor() {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("X-Robots-Tag", "otherbot: noindex")
	h.Add("X-Robots-Tag", "mandelbot: nofollow")
	body := strings.NewReader(`<html><head><meta name="robots" content="noarchive"></head><body>...</body></html>`)

	d, err := robotstag.For(h.Get("Content-Type"), h, body, "Mandelbot")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d)
	fmt.Println("indexable:", d.Indexable(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	for _, s := range d.Sources {
		fmt.Printf("%s: %s\n", s.Where, s.Value)
	}
	// Output:
	// nofollow, noarchive
	// indexable: true
	// X-Robots-Tag: mandelbot: nofollow
	// meta name=robots: noarchive
}

// An extractor that already tokenised the page passes its meta elements.
func ExampleFromMeta() {
	metas := []robotstag.Meta{
		{Name: "description", Content: "A page"},
		{Name: "Mandelbot", Content: "NONE"},
	}
	fmt.Println(robotstag.FromMeta(metas, "Mandelbot"))
	// Output: noindex, nofollow
}

// unavailable_after takes the page out of the index from the given instant.
func ExampleDirectives_Indexable() {
	h := http.Header{"X-Robots-Tag": {"unavailable_after: 25 Jun 2010 15:00:00 PST"}}
	d := robotstag.FromHeader(h, "Mandelbot")
	fmt.Println(d.UnavailableAfter)
	fmt.Println(d.Indexable(time.Date(2010, 6, 25, 22, 59, 0, 0, time.UTC)))
	fmt.Println(d.Indexable(time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)))
	// Output:
	// 2010-06-25 23:00:00 +0000 UTC
	// true
	// false
}

// A Parser carries the agent and changes the limits.
func ExampleParser() {
	p := robotstag.Parser{Agent: "Mandelbot", MaxHTMLBytes: 64 << 10, MaxTags: 8}
	d, err := p.FromHTML(strings.NewReader(`<title>x</title><img src=pixel.gif><meta name=mandelbot content=noindex>`))
	fmt.Println(d, err)
	// Output: noindex <nil>
}
