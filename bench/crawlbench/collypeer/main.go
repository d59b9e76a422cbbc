// Command collypeer crawls a generated web with Colly (github.com/gocolly/colly/v2 v2.3.0) as
// crawlbench's peer: robots.txt obeyed, asynchronous, at most -per-origin requests in flight per
// origin (one LimitRule per origin, with -delay after each answer, none by default) and
// -concurrency over all origins, following every link, storing nothing. With -select, a second
// OnHTML callback takes the elements matching the CSS selector, as a scraper does (Colly parses
// each page's DOM once for all its OnHTML callbacks: the link callback already pays the parse).
// With -bleve DIR, every page's title and body text is stored in a bleve v2.6.3 index made in
// DIR (English analyzer, batches of 1,000: bleve.go), the crawl-and-search a Go user would
// assemble today (issue 26's colly+bleve peer); the run ends when the last batch is indexed.
// crawlbench builds it and runs it as a measured child process; it prints one JSON report on
// stdout.
//
// Usage:
//
//	collypeer -concurrency 16 -per-origin 1 [-delay 2s] [-select h1] [-bleve DIR] -resolve HOST:PORT:ADDR... SEED...
//
// Only the pinned HOST:PORT pairs can be reached, so the peer never leaves the fake web.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/fractle/mandelbot/bench/internal/pindial"
)

// requestTimeout bounds one request, waiting for a global slot included; the fake web answers
// in microseconds.
const requestTimeout = 30 * time.Second

// Report is what the peer prints: one JSON object.
type Report struct {
	Responses     int64   `json:"responses"`      // answers Colly handed to OnResponse (pages fetched)
	Errors        int64   `json:"errors"`         // requests that failed (OnError)
	RobotsBlocked int64   `json:"robots_blocked"` // links Colly refused because robots.txt disallows them
	Selected      int64   `json:"selected"`       // elements the -select callback received
	Indexed       int64   `json:"indexed"`        // documents in the -bleve index at its close (one per page)
	Seconds       float64 `json:"seconds"`        // from the first Visit to the end of Wait
	FirstErr      string  `json:"first_err"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "collypeer:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("collypeer", flag.ContinueOnError)
	concurrency := fs.Int("concurrency", 16, "requests in flight over all origins")
	perOrigin := fs.Int("per-origin", 1, "requests in flight per origin (LimitRule.Parallelism)")
	delay := fs.Duration("delay", 0, "wait after each answer before the origin's next request (LimitRule.Delay)")
	selector := fs.String("select", "", "add an OnHTML callback for this CSS selector (\"\": none)")
	bleveDir := fs.String("bleve", "", "store every page's title and text in a new bleve index in this directory (\"\": none)")
	var resolves []string
	fs.Func("resolve", "HOST:PORT:ADDR (repeatable); one LimitRule per HOST:PORT", func(s string) error {
		resolves = append(resolves, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *concurrency < 1 || *perOrigin < 1 || *delay < 0 || fs.NArg() == 0 {
		return errors.New("want -concurrency and -per-origin positive, -delay not negative, and seeds")
	}
	var sink *bleveSink
	if *bleveDir != "" {
		var err error
		if sink, err = openBleve(*bleveDir); err != nil {
			return err
		}
	}
	rep, err := crawl(fs.Args(), resolves, *concurrency, *perOrigin, *delay, *selector, sink)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(out).Encode(rep); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// crawl runs one Colly collector from seeds to the end of its work.
// With sink, every HTML page's title and body text is stored in it, and the crawl ends when the
// sink is closed.
func crawl(seeds, resolves []string, concurrency, perOrigin int, delay time.Duration, selector string, sink *bleveSink) (Report, error) {
	dialer, err := pindial.New(resolves)
	if err != nil {
		return Report{}, err
	}
	c := colly.NewCollector(colly.Async(true))
	c.IgnoreRobotsTxt = false
	c.WithTransport(newSlotTransport(&http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConns:        0, // no limit over all hosts
		MaxIdleConnsPerHost: concurrency,
		IdleConnTimeout:     time.Minute,
	}, concurrency))
	c.SetRequestTimeout(requestTimeout)
	for _, r := range resolves {
		host, port, _, err := pindial.Parse(r)
		if err != nil {
			return Report{}, err
		}
		// Colly matches a rule against the request URL's host:port; one rule per origin gives
		// each origin its own Parallelism (one rule for "*" would share it over all origins).
		rule := &colly.LimitRule{DomainGlob: net.JoinHostPort(pindial.LowerASCII(host), port), Parallelism: perOrigin, Delay: delay}
		if err := c.Limit(rule); err != nil {
			return Report{}, fmt.Errorf("limit %s: %w", r, err)
		}
	}

	var (
		responses, errCount, blocked, selected atomic.Int64
		firstErr                               string
		mu                                     sync.Mutex
	)
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if err := e.Request.Visit(e.Attr("href")); errors.Is(err, colly.ErrRobotsTxtBlocked) {
			blocked.Add(1)
		}
	})
	if selector != "" {
		c.OnHTML(selector, func(*colly.HTMLElement) { selected.Add(1) })
	}
	if sink != nil {
		c.OnHTML("html", func(e *colly.HTMLElement) {
			sink.add(e.Request.URL.String(), e.ChildText("title"), e.DOM.Find("body").Text())
		})
	}
	c.OnResponse(func(*colly.Response) { responses.Add(1) })
	c.OnError(func(r *colly.Response, err error) {
		errCount.Add(1)
		mu.Lock()
		if firstErr == "" {
			firstErr = r.Request.URL.String() + ": " + err.Error()
		}
		mu.Unlock()
	})

	start := time.Now()
	for _, s := range seeds {
		// A seed may already be queued: a page fetched meanwhile linked to it.
		var seen *colly.AlreadyVisitedError
		if err := c.Visit(s); err != nil && !errors.As(err, &seen) {
			return Report{}, fmt.Errorf("visit %s: %w", s, err)
		}
	}
	c.Wait()
	rep := Report{Responses: responses.Load(), Errors: errCount.Load(), RobotsBlocked: blocked.Load(), Selected: selected.Load(), FirstErr: firstErr}
	if sink != nil {
		var err error
		if rep.Indexed, err = sink.close(); err != nil {
			return rep, err
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// slotTransport lets at most n requests be in flight over all origins: a slot is taken before
// a request is sent and given back when its body is closed (or the request fails). It is safe
// for concurrent use.
type slotTransport struct {
	next  http.RoundTripper
	slots chan struct{}
}

func newSlotTransport(next http.RoundTripper, n int) *slotTransport {
	return &slotTransport{next: next, slots: make(chan struct{}, n)}
}

// RoundTrip implements http.RoundTripper.
func (t *slotTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case t.slots <- struct{}{}:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		<-t.slots
		return nil, err
	}
	resp.Body = &slotBody{ReadCloser: resp.Body, release: func() { <-t.slots }}
	return resp, nil
}

// slotBody gives its request's slot back on the first Close.
type slotBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *slotBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
