package crawler

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/urlnorm"
)

// BenchmarkDocumentGenerated cycles through benchDocuments pages of the first of benchOrigins
// generated origins.
const (
	benchDocuments = 50
	benchOrigins   = 4
)

// BenchmarkDocumentGenerated measures the crawl path's processing of one fetched page
// (worker.extract: robot tags, extraction, link resolution and classification) on the pages of
// crawlbench's web, testweb.Generate (issue 26: the crawl path's CPU per page):
// go test -run '^$' -bench DocumentGenerated -benchmem ./internal/crawler
func BenchmarkDocumentGenerated(b *testing.B) {
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: benchOrigins, PagesPerOrigin: benchDocuments}), testweb.Options{MaxLog: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer web.Close()
	tr := &http.Transport{DialContext: web.DialContext}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	parser := &urlnorm.Parser{}
	var seeds []*urlnorm.URL // every origin, as crawlbench seeds them: cross links are in scope
	for i := range benchOrigins {
		seed, err := parser.Parse(web.URL(testweb.GenKey(i), "/"))
		if err != nil {
			b.Fatal(err)
		}
		seeds = append(seeds, seed)
	}
	opts := Options{}.withDefaults()
	w := &worker{opts: opts, scope: newScope(seeds, opts.Scope, opts.MaxDepth, opts.CalendarYears, time.Now), parser: parser}
	var answers []answer
	var tasks []task
	for n := range benchDocuments {
		u := web.URL(testweb.GenKey(0), testweb.GenPath(n))
		resp, err := hc.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %v %d", u, err, resp.StatusCode)
		}
		answers = append(answers, answer{now: time.Now(), resp: &fetch.Response{
			URL: u, Status: resp.StatusCode, Header: resp.Header, Body: body,
			ContentType: "text/html",
		}})
		tasks = append(tasks, task{url: store.URL{ID: store.IDOf(u), URL: u, Kind: store.KindPage}})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		res := w.extract(tasks[i%benchDocuments], answers[i%benchDocuments], store.WARCRef{})
		if len(res.links) == 0 {
			b.Fatal("no links")
		}
		i++
	}
}
