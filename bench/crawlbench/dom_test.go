package main

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/testweb"
)

// generatedPages fetches n pages of one generated origin, as crawlbench's web serves them.
func generatedPages(tb testing.TB, n int) (urls []string, bodies [][]byte) {
	tb.Helper()
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 1, PagesPerOrigin: n}), testweb.Options{MaxLog: -1})
	if err != nil {
		tb.Fatal(err)
	}
	defer web.Close()
	client := &http.Client{Transport: &http.Transport{DialContext: web.DialContext}}
	key := web.Keys()[0]
	for i := range n {
		path := "/"
		if i > 0 {
			path = "/p/" + strconv.Itoa(i)
		}
		resp, err := client.Get(web.URL(key, path))
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			tb.Fatal(err)
		}
		urls, bodies = append(urls, web.URL(key, path)), append(bodies, b)
	}
	return urls, bodies
}

// BenchmarkDOM is issue 28's per-page DOM cost on crawlbench's pages, in one process: the Go
// API's Page.DOM (charset detection, goquery parse) and one selection, against what Colly
// v2.3.0 does for OnHTML (colly.go handleOnHTML: goquery parse of the body, its base[href]
// lookup, then the selection). The same goquery version serves both in this module.
func BenchmarkDOM(b *testing.B) {
	urls, bodies := generatedPages(b, 50)
	header := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	b.Run("mandelbot", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			k := i % len(bodies)
			p := &crawl.Page{Document: crawl.Document{URL: urls[k], Status: 200, ContentType: "text/html", Header: header}, Body: bodies[k]}
			dom, err := p.DOM()
			if err != nil {
				b.Fatal(err)
			}
			if dom.Find(defaultSelector).First().Length() != 1 {
				b.Fatal("no h1")
			}
		}
	})
	b.Run("colly", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			doc, err := goquery.NewDocumentFromReader(bytes.NewBuffer(bodies[i%len(bodies)]))
			if err != nil {
				b.Fatal(err)
			}
			doc.Find("base[href]").Attr("href")
			n := 0
			doc.Find(defaultSelector).Each(func(int, *goquery.Selection) { n++ })
			if n != 1 {
				b.Fatal("no h1")
			}
		}
	})
}
