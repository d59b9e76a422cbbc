// Command crawlbench measures a crawl of a generated web (issue 3): the real `mandelbot crawl`
// binary against testweb.Generate on loopback with --delay 0, and, as the ceiling, a loop that
// only GETs the same URLs with net/http at the same concurrency. It prints requests per
// second, peak RSS and their ratio as Markdown tables, and checks that the crawl fetched every
// page once and nothing robots.txt disallows.
//
// Usage (from bench/):
//
//	go run ./crawlbench [-origins 100] [-pages 200] [-concurrency 16] [-per-origin 1] [-runs 1]
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/host"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// Defaults of the flags: issue 3's web, and the crawler's own concurrency defaults (copied
// here rather than imported, so that this module does not need the crawler's dependencies).
const (
	defaultOrigins = 100
	defaultPages   = 200
	// defaultConcurrency is `mandelbot crawl --concurrency`'s default (crawler.DefaultConcurrency).
	defaultConcurrency = 16
	// defaultPerOrigin is `mandelbot crawl --per-origin`'s default (frontier.DefaultPerOrigin:
	// one request in flight per origin). With 100 origins and 16 requests in flight there are
	// always more origins with due work than free slots, so it does not hold throughput back,
	// and the figure is the crawler as users run it with only --delay changed.
	defaultPerOrigin = 1
	defaultRuns      = 1
	defaultTimeout   = 15 * time.Minute // per child process
)

type config struct {
	origins, pages, runs int
	settings             crawlSettings
	seed                 uint64
	src, bin             string
	timeout              time.Duration

	loop     string   // loop mode (the ceiling child): the URL file
	resolves []string // loop mode: host:port:addr entries
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark (or, with -loop, the ceiling child; with
// -spawn-report, the launcher of a measured child); it returns the exit status: 0 done and
// every check passed, 1 a check failed or a run broke, 2 usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) >= 3 && args[0] == spawnFlag && args[2] == "--" {
		return runSpawn(args[1], args[3:], stderr)
	}
	var cfg config
	fs := flag.NewFlagSet("crawlbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.origins, "origins", defaultOrigins, "origins of the generated web")
	fs.IntVar(&cfg.pages, "pages", defaultPages, "pages per origin, the home page included")
	fs.IntVar(&cfg.settings.Concurrency, "concurrency", defaultConcurrency, "requests in flight over all origins (crawler and loop)")
	fs.IntVar(&cfg.settings.PerOrigin, "per-origin", defaultPerOrigin, "the crawler's --per-origin")
	fs.IntVar(&cfg.runs, "runs", defaultRuns, "crawl and ceiling runs, interleaved; several give medians")
	fs.Uint64Var(&cfg.seed, "seed", 0, "seed of the generated web")
	fs.StringVar(&cfg.src, "src", "..", "source directory of the main module (mandelbot is built from SRC/cmd/mandelbot)")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "kill a child process that runs longer than this")
	fs.StringVar(&cfg.loop, "loop", "", "internal: run as the ceiling child, GETting the URLs listed in this file")
	fs.Func("resolve", "internal: HOST:PORT:ADDR for the ceiling child (repeatable)", func(s string) error {
		cfg.resolves = append(cfg.resolves, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || cfg.origins < 1 || cfg.pages < 1 || cfg.runs < 1 ||
		cfg.settings.Concurrency < 1 || cfg.settings.PerOrigin < 1 {
		fmt.Fprintln(stderr, "crawlbench: -origins, -pages, -runs, -concurrency and -per-origin must be positive; no arguments")
		return 2
	}
	if cfg.loop != "" {
		if err := runLoop(cfg.loop, cfg.settings.Concurrency, cfg.resolves, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	ok, err := bench(context.Background(), cfg, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "crawlbench:", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// result is one run: a crawl and its ceiling.
type result struct {
	crawl crawlRun
	loop  loopRun
}

// bench runs cfg.runs crawls, each followed by its ceiling on the same web, and prints the
// report; ok is false when a check of a crawl failed.
func bench(ctx context.Context, cfg config, out io.Writer) (ok bool, err error) {
	fmt.Fprintf(out, "crawlbench: testweb.Generate %d origins x %d pages (seed %d), %d runs\n",
		cfg.origins, cfg.pages, cfg.seed, cfg.runs)
	fmt.Fprintf(out, "crawler: --delay 0 --concurrency %d --per-origin %d; ceiling: net/http loop, %d workers\n",
		cfg.settings.Concurrency, cfg.settings.PerOrigin, cfg.settings.Concurrency)
	fmt.Fprintf(out, "load average at start: %s\n", host.LoadAverage())

	tmp, err := os.MkdirTemp("", "crawlbench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	bin := cfg.bin
	if bin == "" {
		if bin, err = buildMandelbot(ctx, cfg.src, tmp); err != nil {
			return false, err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return false, fmt.Errorf("find this program for the ceiling: %w", err)
	}

	gen := testweb.GenOptions{Origins: cfg.origins, PagesPerOrigin: cfg.pages, Seed: cfg.seed}
	var results []result
	ok = true
	for i := range cfg.runs {
		r, err := oneRun(ctx, cfg, gen, bin, self, tmp)
		if err != nil {
			return false, fmt.Errorf("run %d: %w", i+1, err)
		}
		if problems := checks(r.crawl); len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED in run %d:\n  %s\n", i+1, strings.Join(problems, "\n  "))
		}
		results = append(results, r)
	}
	fmt.Fprintf(out, "load average at end: %s\n\n", host.LoadAverage())
	if err := report(out, results); err != nil {
		return false, err
	}
	return ok, nil
}

// oneRun starts a fresh web, crawls it, then GETs what the crawler requested with the loop.
func oneRun(ctx context.Context, cfg config, gen testweb.GenOptions, bin, self, tmp string) (result, error) {
	web, err := testweb.Start(testweb.Generate(gen), testweb.Options{})
	if err != nil {
		return result{}, err
	}
	defer web.Close()
	cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	var r result
	if r.crawl, err = runCrawl(cctx, self, bin, web, tmp, cfg.settings, cfg.pages); err != nil {
		return r, err
	}
	r.loop, err = runCeiling(cctx, self, web, tmp, requestURLs(r.crawl.Requests), cfg.settings.Concurrency)
	return r, err
}

// checks returns what went wrong in a crawl: it must end because no work was left, ask for
// every page exactly once, never for a disallowed page, and for each origin's robots.txt
// before its pages.
func checks(c crawlRun) []string {
	var p []string
	t := c.Tally
	if c.StopReason != finishedReason {
		p = append(p, fmt.Sprintf("the crawl ended with %q, not %q", c.StopReason, finishedReason))
	}
	if t.Private > 0 {
		p = append(p, fmt.Sprintf("%d requests under /private/, which robots.txt disallows: %v", t.Private, t.PrivateSeen))
	}
	if t.Missing > 0 {
		p = append(p, fmt.Sprintf("%d pages never requested: %v", t.Missing, t.MissingSeen))
	}
	if t.Duplicates > 0 {
		p = append(p, fmt.Sprintf("%d requests repeated: %v", t.Duplicates, t.DuplicateSeen))
	}
	if t.Other > 0 {
		p = append(p, fmt.Sprintf("%d requests for paths the web does not have: %v", t.Other, t.OtherSeen))
	}
	if t.NonOK > 0 {
		p = append(p, fmt.Sprintf("%d answers other than 200: %v", t.NonOK, t.NonOKSeen))
	}
	if c.BeforeRobots > 0 {
		p = append(p, fmt.Sprintf("%d requests before their origin's robots.txt (rule 20)", c.BeforeRobots))
	}
	return p
}
