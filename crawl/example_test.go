package crawl_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/fractle/mandelbot/crawl"
)

// serve starts a site on loopback that answers each path with its page (robots.txt too) and
// 404 otherwise. The examples use only the standard library and public packages: copy them.
func serve(pages map[string]string) *httptest.Server { return httptest.NewServer(site(pages)) }

// site answers each path with its page.
func site(pages map[string]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, body)
	})
}

// Crawl a small site and print each page as it arrives: robots.txt is read first and its
// Disallow kept (/private is never requested), and the noindex page says so. The site runs on
// loopback, hence AllowPrivate, and a short Delay (the default is a second per origin).
func ExampleRun() {
	shop := serve(map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private\n",
		"/": `<title>Shop</title><p>Fresh bread every morning.</p>
			<a href="/bread">Our bread</a> <a href="/private">Staff only</a> <a href="/draft">Draft</a>`,
		"/bread": `<title>Bread</title><p>Sourdough, rye and spelt.</p>`,
		"/draft": `<meta name="robots" content="noindex"><title>Draft</title>`,
	})
	defer shop.Close()

	var pages []string
	stats, err := crawl.Run(context.Background(), crawl.Config{
		Seeds:        []string{shop.URL + "/"},
		AllowPrivate: true,
		Delay:        10 * time.Millisecond,
		OnDocument: func(d crawl.Document) {
			line := fmt.Sprintf("%d %s %q indexable=%t", d.Status, strings.TrimPrefix(d.URL, shop.URL), d.Title, d.Indexable)
			for _, l := range d.Links {
				line += fmt.Sprintf(" [%s -> %s]", l.Anchor, strings.TrimPrefix(l.URL, shop.URL))
			}
			pages = append(pages, line)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(pages) // pages arrive in the order the crawl fetched them
	for _, p := range pages {
		fmt.Println(p)
	}
	fmt.Println("pages", stats.Pages, "disallowed", stats.Disallowed, "robots.txt", stats.Robots, stats.StopReason)
	// Output:
	// 200 / "Shop" indexable=true [Our bread -> /bread] [Staff only -> /private] [Draft -> /draft]
	// 200 /bread "Bread" indexable=true
	// 200 /draft "Draft" indexable=false
	// pages 3 disallowed 1 robots.txt 1 finished
}

// Scrape one field of every page with a CSS selector, as Colly's OnHTML("dt.sig", ...) does:
// Page.DOM parses the page (once, and only when asked) into a goquery Document. The crawl
// follows the catalogue's links itself, politely.
func ExamplePage_DOM() {
	shop := serve(map[string]string{
		"/":     `<h1>Manuscripts</h1><a href="/ms/1">first</a> <a href="/ms/2">second</a>`,
		"/ms/1": `<dl><dt class="sig">Ms. 17</dt><dd>Psalter, vellum</dd></dl>`,
		"/ms/2": `<dl><dt class="sig">Ms. 42</dt><dd>Herbal, paper</dd></dl>`,
	})
	defer shop.Close()

	var sigs []string
	_, err := crawl.Run(context.Background(), crawl.Config{
		Seeds: []string{shop.URL + "/"}, AllowPrivate: true, Delay: 10 * time.Millisecond,
		OnPage: func(p *crawl.Page) {
			dom, err := p.DOM()
			if err != nil {
				return // not HTML
			}
			if sig := dom.Find("dt.sig").First(); sig.Length() > 0 {
				sigs = append(sigs, strings.TrimPrefix(p.URL, shop.URL)+": "+sig.Text()+" ("+sig.Next().Text()+")")
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(sigs)
	fmt.Println(strings.Join(sigs, "\n"))
	// Output:
	// /ms/1: Ms. 17 (Psalter, vellum)
	// /ms/2: Ms. 42 (Herbal, paper)
}

// The same scrape in Colly's style: OnHTML compiles the selector once and calls back for every
// matching element; Pages combines callbacks that share one parse of each page.
func ExampleOnHTML() {
	shop := serve(map[string]string{
		"/":     `<h1>Manuscripts</h1><a href="/ms/1">first</a> <a href="/ms/2">second</a>`,
		"/ms/1": `<dl><dt class="sig">Ms. 17</dt><dd>Psalter</dd><dt class="sig">Ms. 17a</dt><dd>Its binding</dd></dl>`,
		"/ms/2": `<dl><dt class="sig">Ms. 42</dt><dd>Herbal</dd></dl>`,
	})
	defer shop.Close()

	var lines []string
	sigs, err := crawl.OnHTML("dt.sig", func(p *crawl.Page, e *goquery.Selection) {
		lines = append(lines, strings.TrimPrefix(p.URL, shop.URL)+": "+e.Text()+" ("+e.Next().Text()+")")
	})
	if err != nil {
		log.Fatal(err)
	}
	headings, err := crawl.OnHTML("h1", func(p *crawl.Page, e *goquery.Selection) {
		lines = append(lines, strings.TrimPrefix(p.URL, shop.URL)+": heading "+e.Text())
	})
	if err != nil {
		log.Fatal(err)
	}
	_, err = crawl.Run(context.Background(), crawl.Config{
		Seeds: []string{shop.URL + "/"}, AllowPrivate: true, Delay: 10 * time.Millisecond,
		OnPage: crawl.Pages(sigs, headings),
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(lines)
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// /: heading Manuscripts
	// /ms/1: Ms. 17 (Psalter)
	// /ms/1: Ms. 17a (Its binding)
	// /ms/2: Ms. 42 (Herbal)
}

// Follow pagination by adding URLs from the page callback: with VisitOnly the crawl requests
// the seed and what Visit adds, nothing else (the "About" link is not followed). A visited URL
// still waits for robots.txt, pauses and the delay, and is saved with the page, so a crawl
// with a StorePath that stops here resumes with it.
func ExamplePage_Visit() {
	shop := serve(map[string]string{
		"/list?page=1": `<ul><li class="item">bread</li><li class="item">rye</li></ul>
			<a href="/about">About</a> <a rel="next" href="?page=2">Next</a>`,
		"/list?page=2": `<ul><li class="item">spelt</li></ul> <a rel="next" href="?page=3">Next</a>`,
		"/list?page=3": `<ul><li class="item">barley</li></ul>`,
		"/about":       `<p>Not a list.</p>`,
	})
	defer shop.Close()

	_, err := crawl.Run(context.Background(), crawl.Config{
		Seeds: []string{shop.URL + "/list?page=1"}, AllowPrivate: true, Delay: 10 * time.Millisecond,
		VisitOnly: true,
		OnPage: func(p *crawl.Page) {
			dom, err := p.DOM()
			if err != nil {
				return
			}
			items := dom.Find("li.item").Map(func(_ int, s *goquery.Selection) string { return s.Text() })
			fmt.Println(strings.TrimPrefix(p.URL, shop.URL), "depth", p.Depth, items)
			if next, ok := dom.Find(`a[rel="next"]`).Attr("href"); ok {
				if err := p.Visit(next); err != nil { // relative to the page, as an href is
					fmt.Println(err)
				}
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// /list?page=1 depth 0 [bread rye]
	// /list?page=2 depth 1 [spelt]
	// /list?page=3 depth 2 [barley]
}

// Collect the requests that failed, with whether they will be asked again: a server that
// drops the connection is retried twice, then given up; a 503 pauses its origin for the hour
// its Retry-After asks, longer than MaxWait, so the run stops waiting (StopWaiting) and a later
// Run on the same store would ask again. A 404 is an answer, a page, not a failure.
func ExampleConfig_onError() {
	shop := httptest.NewServer(flaky(site(map[string]string{
		"/": `<a href="/flaky">flaky</a> <a href="/gone">gone</a>`,
	}), "/flaky"))
	defer shop.Close()
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer busy.Close()

	var lines []string
	stats, err := crawl.Run(context.Background(), crawl.Config{
		Seeds:        []string{shop.URL + "/", busy.URL + "/report"},
		AllowPrivate: true, Delay: 10 * time.Millisecond, MaxWait: time.Second,
		RetryBackoff: 10 * time.Millisecond, // retries wait 10 ms, then 20 ms (10 s, 20 s by default)
		OnError: func(f crawl.Failure) {
			path := strings.TrimPrefix(strings.TrimPrefix(f.URL, shop.URL), busy.URL)
			lines = append(lines, fmt.Sprintf("failed %s status=%d attempt=%d retry=%t", path, f.Status, f.Attempts, f.Retry))
		},
		OnPage: func(p *crawl.Page) {
			if p.Status >= 400 {
				lines = append(lines, fmt.Sprintf("answered %s %d", strings.TrimPrefix(p.URL, shop.URL), p.Status))
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(lines)
	fmt.Println(strings.Join(lines, "\n"))
	fmt.Println("stopped:", stats.StopReason, "given up:", stats.Errors, "paused:", stats.OriginsPaused)
	// Output:
	// answered /gone 404
	// failed /flaky status=0 attempt=1 retry=true
	// failed /flaky status=0 attempt=2 retry=true
	// failed /flaky status=0 attempt=3 retry=false
	// failed /report status=503 attempt=1 retry=true
	// stopped: waiting given up: 1 paused: 1
}

// flaky closes the connection without an answer for path, and serves the rest with next.
func flaky(next http.Handler, path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			next.ServeHTTP(w, r)
			return
		}
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
}
