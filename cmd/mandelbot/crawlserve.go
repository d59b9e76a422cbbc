package main

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/tester"
)

// crawlSite is the site of `crawl --serve`: it serves the crawl's dashboard, search, tester and
// /metrics while the crawl runs, and afterwards, unless --serve-exit, the finished crawl until
// Ctrl-C or SIGTERM. A nil *crawlSite (no --serve) does nothing. Its methods are called from
// runCrawl's goroutine only.
type crawlSite struct {
	out          io.Writer
	addr         net.Addr
	exitWhenDone bool
	stop         context.CancelFunc
	served       chan error // receives serveOn's result once
	gaps         *liveGaps  // the running crawl's gaps between requests, for the dashboard
	done         bool       // served has been received from
	err          error
}

// startCrawlSite starts serving st on ln (nil: no --serve, and it returns nil), and makes cfg
// record the crawl's metrics into the registry the site serves. The tester's robots.txt fetches
// get the crawl's own address permissions and User-Agent, as cfg holds them (--allow-private,
// --resolve, --user-agent). The site
// outlives ctx (the crawl's signal context): finish decides when it stops.
func startCrawlSite(ctx context.Context, ln net.Listener, f crawlFlags, st store.Store, cfg *crawl.Config, out io.Writer) *crawlSite {
	if ln == nil {
		return nil
	}
	reg := prometheus.NewRegistry()
	cfg.Metrics = reg
	resolve, _ := parseResolves(cfg.Resolve) // checked with the crawl's configuration already
	ua := cfg.UserAgent
	if ua == "" {
		ua = testerUserAgent()
	}
	serveCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	c := &crawlSite{out: out, addr: ln.Addr(), exitWhenDone: f.serveExit, stop: stop, served: make(chan error, 1), gaps: &liveGaps{}}
	cfg.OnProgress = c.gaps.wrap(cfg.OnProgress) // issue 29: each origin's gap, on the dashboard
	s := site{store: st, agent: f.agent, metrics: reg, refresh: liveRefresh,
		fetch: tester.FetchOptions{UserAgent: ua, AllowPrivate: cfg.AllowPrivate, Resolve: resolve}, gaps: c.gaps.get}
	go func() { c.served <- serveOn(serveCtx, ln, s, out) }()
	return c
}

// failed returns err, or, when err is nil and the site has already stopped with an error while
// the crawl ran, that error: a site that was asked for and failed fails the crawl.
func (c *crawlSite) failed(err error) error {
	if c == nil || err != nil {
		return err
	}
	select {
	case c.err = <-c.served:
		c.done = true
		return c.err
	default:
		return nil
	}
}

// finish is called once the crawl's summary is written. Unless the crawl was interrupted or
// --serve-exit was given, it says on the terminal where the finished crawl is served and how to
// stop, and serves it until ctx ends (Ctrl-C or SIGTERM). Then it stops the site, letting
// requests in flight finish. The crawl's exit status stands whatever happens here: the crawl
// finished, so Ctrl-C now is not an interruption (README, crawl --serve); a site that fails
// while waiting is reported on the terminal.
func (c *crawlSite) finish(ctx context.Context, interrupted bool) {
	if c == nil || c.done {
		return
	}
	c.gaps.clear() // a finished crawl has no gap between requests to show
	if !interrupted && !c.exitWhenDone {
		fmt.Fprintf(c.out, "Serving the finished crawl on http://%s until Ctrl-C (--serve-exit stops when the crawl ends)\n", c.addr)
		select {
		case <-ctx.Done():
		case c.err = <-c.served:
			c.done = true
		}
	}
	c.stop()
	if !c.done {
		c.err = <-c.served
	}
	if c.err != nil {
		fmt.Fprintf(c.out, "error: %v\n", c.err)
	}
}
