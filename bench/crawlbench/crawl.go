package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// crawlSettings are the knobs a crawl run and its ceiling share.
type crawlSettings struct {
	Concurrency, PerOrigin int
	// MandelbotFlags are more flags of `mandelbot crawl` (-mandelbot-flags), e.g. --memory 128MiB.
	MandelbotFlags []string
	// KeepData (-keep-data), when not empty, is a directory that keeps each crawl's data
	// directory after the run, for inspecting the store (issue 26: per-table sizes); it is
	// created if missing. Empty: the data directory is removed.
	KeepData string
}

// crawlArgs returns the arguments of `mandelbot crawl` for web: no delay, the given
// concurrency, one --resolve per site, every site's home page as a seed.
func crawlArgs(web *testweb.Web, data string, s crawlSettings, extra ...string) []string {
	args := []string{"crawl", "--data", data, "--delay", "0",
		"--concurrency", strconv.Itoa(s.Concurrency), "--per-origin", strconv.Itoa(s.PerOrigin)}
	args = append(args, s.MandelbotFlags...)
	args = append(args, extra...)
	for _, r := range web.Resolve() {
		args = append(args, "--resolve", r)
	}
	return append(args, web.Seeds()...)
}

// crawlRun is one measured crawl.
type crawlRun struct {
	spawn.Run
	Tally       tally  // the web's requests during the crawl
	StopReason  string // from the crawler's summary
	CrawlerSays string // the crawler's own "pages answered" line
	WARCBytes   int64  // with --warc: the size of the WARC files written
	WARCFiles   int
	// StoreBytes is the size of the data directory once the crawl exited (the store's files,
	// and the WARC files with --warc), against Run.WriteBytes, what it wrote meanwhile.
	StoreBytes int64
	// Requesting is the time from the crawler's start to the last request the web received:
	// the crawl path alone, before the index's catch-up (Run.Wall - Requesting).
	Requesting time.Duration
}

// runCrawl runs the crawler binary against web, with a fresh data directory inside tmp,
// under the launcher (see spawn), and tallies what the web received meanwhile with rec.
// The URLs the crawl requested, in order, are returned for the ceiling. With warc, the crawl
// archives into a WARC directory inside the data directory, and the files' size is reported.
func runCrawl(ctx context.Context, opts spawn.Options, bin string, web *testweb.Web, rec *recorder, tmp string, s crawlSettings, pagesPerOrigin int, warc bool) (crawlRun, []string, error) {
	parent := tmp
	if s.KeepData != "" {
		if err := os.MkdirAll(s.KeepData, 0o755); err != nil {
			return crawlRun{}, nil, fmt.Errorf("crawl: %w", err)
		}
		parent = s.KeepData
	}
	data, err := os.MkdirTemp(parent, "data-")
	if err != nil {
		return crawlRun{}, nil, fmt.Errorf("crawl: %w", err)
	}
	if s.KeepData == "" {
		defer os.RemoveAll(data)
	}
	var extra []string
	warcDir := filepath.Join(data, "warc")
	if warc {
		extra = []string{"--warc", warcDir}
	}
	start := time.Now()
	child, err := spawn.Measure(ctx, opts, bin, crawlArgs(web, data, s, extra...)...)
	r := crawlRun{Run: child}
	if last := rec.lastRequest(); !last.IsZero() {
		r.Requesting = min(last.Sub(start), child.Wall)
	}
	if warc {
		files, _ := filepath.Glob(filepath.Join(warcDir, "*.warc.gz"))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil {
				r.WARCBytes += fi.Size()
				r.WARCFiles++
			}
		}
	}
	r.StoreBytes = dirBytes(data)
	var urls []string
	r.Tally, urls = rec.finish(web.Keys(), pagesPerOrigin)
	if err != nil {
		return r, nil, fmt.Errorf("crawl: %w", err)
	}
	r.StopReason, r.CrawlerSays = mandelbotcli.SummaryLines(child.Stdout)
	return r, urls, nil
}
