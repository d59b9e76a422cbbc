// Command libpeer crawls a generated web with the Go API, package crawl, as crawlbench's
// library program: Config as `mandelbot crawl --delay 0` sets it (robots.txt obeyed, no delay,
// -per-origin requests in flight per origin and -concurrency over all origins, a temporary
// SQLite store with its search index). With -select it sets an OnPage callback that parses each
// page's DOM (Page.DOM) and selects one element with the CSS selector, as a scraper does;
// without it there is no callback, so the difference between the two is what the callback's
// DOM costs. It prints one JSON report on stdout.
//
// Usage:
//
//	libpeer [-select h1] -concurrency 16 -per-origin 1 -resolve HOST:PORT:ADDR... SEED...
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fractle/mandelbot/crawl"
)

// Report is what the peer prints: one JSON object.
type Report struct {
	Pages    int     `json:"pages"`    // pages answered (Stats.Pages)
	Selected int     `json:"selected"` // pages whose DOM had an element matching -select
	Errors   int     `json:"errors"`   // URLs given up (Stats.Errors)
	Seconds  float64 `json:"seconds"`  // crawl.Run, from its call to its return
	Stop     string  `json:"stop"`     // Stats.StopReason
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "libpeer:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("libpeer", flag.ContinueOnError)
	concurrency := fs.Int("concurrency", crawl.DefaultConcurrency, "requests in flight over all origins")
	perOrigin := fs.Int("per-origin", crawl.DefaultPerOrigin, "requests in flight per origin")
	selector := fs.String("select", "", "parse every page's DOM in OnPage and select the first element matching this CSS selector (\"\": no callback)")
	var resolves []string
	fs.Func("resolve", "HOST:PORT:ADDR (repeatable)", func(s string) error {
		resolves = append(resolves, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *concurrency < 1 || *perOrigin < 1 || fs.NArg() == 0 {
		return errors.New("want -concurrency and -per-origin positive, and seeds")
	}
	cfg := crawl.Config{
		Seeds: fs.Args(), Resolve: resolves, Delay: -1, Concurrency: *concurrency, PerOrigin: *perOrigin,
		MaxWait: time.Minute,
	}
	var selected int
	if *selector != "" {
		cfg.OnPage = func(p *crawl.Page) {
			dom, err := p.DOM()
			if err != nil {
				return
			}
			if dom.Find(*selector).First().Length() > 0 { // calls are serialized: no lock
				selected++
			}
		}
	}
	start := time.Now()
	st, err := crawl.Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	rep := Report{Pages: st.Pages, Selected: selected, Errors: st.Errors, Seconds: time.Since(start).Seconds(), Stop: st.StopReason.String()}
	if err := json.NewEncoder(out).Encode(rep); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
