// Command crawlbench measures a crawl of a generated web (issues 3 and 8): the real
// `mandelbot crawl` binary against testweb.Generate on loopback with --delay 0, beside two
// peers in the same run: Colly v2.3.0 (robots.txt obeyed, one request in flight per origin,
// storing nothing) and, as the ceiling, a loop that only GETs the crawler's URLs with net/http
// at the same concurrency. It prints pages per second, CPU time per page, peak RSS and their
// ratios as Markdown tables, and checks that each crawler fetched every page once and nothing
// robots.txt disallows.
//
// Usage (from bench/):
//
//	go run ./crawlbench [-origins 100] [-pages 200] [-concurrency 512] [-per-origin 1] [-runs 1]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// Defaults of the flags: issue 3's web, and the crawler's own concurrency defaults (copied
// here rather than imported, so that this module does not need the crawler's dependencies).
const (
	defaultOrigins = 100
	defaultPages   = 200
	// defaultConcurrency is `mandelbot crawl --concurrency`'s default (crawler.DefaultConcurrency).
	defaultConcurrency = 512
	// defaultPerOrigin is `mandelbot crawl --per-origin`'s default (frontier.DefaultPerOrigin:
	// one request in flight per origin). With 100 origins and 512 requests allowed in flight,
	// every origin with due work has its request out, and the figure is the crawler as users
	// run it with only --delay changed.
	defaultPerOrigin = 1
	defaultRuns      = 1
	defaultTimeout   = time.Hour // per child process; 1,000 x 1,000 takes minutes
	// defaultMaxRSSMiB stops a child whose RSS passes it, so that a peer that does not bound
	// its memory (Colly keeps a goroutine per link waiting for its origin) cannot take the
	// shared machine down at 1,000,000 pages.
	defaultMaxRSSMiB = 6144
)

type config struct {
	origins, pages, runs int
	settings             crawlSettings
	seed                 uint64
	src, bin, colly      string
	lib                  string // the library peer's binary ("": build it)
	selector             string // the DOM programs' CSS selector
	timeout              time.Duration
	maxRSSMiB            int64
	programs             programSet

	loop     string   // loop mode (the ceiling child): the URL file
	resolves []string // loop mode: host:port:addr entries
}

func main() {
	if code, ok := spawn.Main(os.Args[1:], os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark (or, with -loop, the ceiling child); it returns the
// exit status: 0 done and every check passed, 1 a check failed or a run broke, 2 usage.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("crawlbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.origins, "origins", defaultOrigins, "origins of the generated web")
	fs.IntVar(&cfg.pages, "pages", defaultPages, "pages per origin, the home page included")
	fs.IntVar(&cfg.settings.Concurrency, "concurrency", defaultConcurrency, "requests in flight over all origins (crawler, Colly and loop)")
	fs.IntVar(&cfg.settings.PerOrigin, "per-origin", defaultPerOrigin, "the crawler's --per-origin and Colly's LimitRule.Parallelism")
	fs.Func("mandelbot-flags", "more flags for `mandelbot crawl` (mandelbot and mandelbot-warc), separated by spaces, e.g. \"--memory 128MiB\"", func(v string) error {
		cfg.settings.MandelbotFlags = strings.Fields(v)
		return nil
	})
	fs.StringVar(&cfg.settings.KeepData, "keep-data", "", "keep each mandelbot crawl's data directory inside this directory (default: remove it)")
	fs.IntVar(&cfg.runs, "runs", defaultRuns, "runs of the three programs, interleaved; several give medians")
	fs.Uint64Var(&cfg.seed, "seed", 0, "seed of the generated web")
	fs.StringVar(&cfg.src, "src", "..", "source directory of the main module (mandelbot is built from SRC/cmd/mandelbot, the Colly peer from SRC/bench)")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.StringVar(&cfg.colly, "colly", "", "use this Colly peer binary (bench/crawlbench/collypeer) instead of building one")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "kill a child process that runs longer than this")
	fs.Int64Var(&cfg.maxRSSMiB, "max-rss", defaultMaxRSSMiB, "stop a child whose RSS passes this many MiB (0: no cap)")
	cfg.programs = allPrograms()
	fs.StringVar(&cfg.lib, "lib", "", "use this library peer binary (bench/crawlbench/libpeer) instead of building one")
	fs.StringVar(&cfg.selector, "select", defaultSelector, "the CSS selector the DOM programs (lib-dom, colly-dom) select on every page")
	fs.Func("programs", "comma-separated programs to run: mandelbot, mandelbot-warc (the crawl with --warc), colly, ceiling, and issue 28's lib (crawl.Run, no callback), lib-dom (crawl.Run with an OnPage DOM callback), colly-dom (Colly with OnHTML(-select)), and issue 26's colly-bleve (Colly storing every page in bleve) (default mandelbot, colly, ceiling)", func(v string) error {
		set, err := parsePrograms(v)
		cfg.programs = set
		return err
	})
	fs.StringVar(&cfg.loop, "loop", "", "internal: run as the ceiling child, GETting the URLs listed in this file")
	fs.Func("resolve", "internal: HOST:PORT:ADDR for the ceiling child (repeatable)", func(s string) error {
		cfg.resolves = append(cfg.resolves, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || cfg.origins < 1 || cfg.pages < 1 || cfg.runs < 1 ||
		cfg.settings.Concurrency < 1 || cfg.settings.PerOrigin < 1 || cfg.maxRSSMiB < 0 {
		fmt.Fprintln(stderr, "crawlbench: -origins, -pages, -runs, -concurrency and -per-origin must be positive, -max-rss not negative; no arguments")
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

// result is one run: a crawl, its ceiling, and Colly, on one web; ran says which of them ran.
type result struct {
	ran   programSet
	crawl crawlRun
	warc  crawlRun // the crawl with --warc (issue 13)
	loop  loopRun
	colly collyRun
	// Issue 28: the Go API without and with a DOM callback, and Colly with OnHTML(-select).
	lib, libDOM libRun
	collyDOM    collyRun
	collyBleve  collyRun
	bleveBytes  int64 // the size of collyBleve's index
}

// programs are the binaries a run starts.
type programs struct {
	mandelbot, colly, lib string
	spawn                 spawn.Options // Self: this program, the launcher and the ceiling loop
}

// bench runs cfg.runs runs and prints the report; ok is false when a check failed.
func bench(ctx context.Context, cfg config, out io.Writer) (ok bool, err error) {
	fmt.Fprintf(out, "crawlbench: testweb.Generate %d origins x %d pages (seed %d), %d runs\n",
		cfg.origins, cfg.pages, cfg.seed, cfg.runs)
	fmt.Fprintf(out, "mandelbot crawl --delay 0 --concurrency %d --per-origin %d; Colly v2.3.0 async, robots.txt on, LimitRule{Parallelism: %d} per origin, %d in flight; net/http loop, %d workers\n",
		cfg.settings.Concurrency, cfg.settings.PerOrigin, cfg.settings.PerOrigin, cfg.settings.Concurrency, cfg.settings.Concurrency)
	startLoad := host.LoadAverage()
	fmt.Fprintf(out, "load average at start: %s\n", startLoad)

	tmp, err := os.MkdirTemp("", "crawlbench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	p := programs{colly: cfg.colly, lib: cfg.lib}
	if cfg.programs.mandelbot || cfg.programs.warc {
		if p.mandelbot, err = mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp); err != nil {
			return false, err
		}
	}
	if p.lib == "" && (cfg.programs.lib || cfg.programs.libDOM) {
		if p.lib, err = buildLib(ctx, filepath.Join(cfg.src, "bench"), tmp); err != nil {
			return false, err
		}
	}
	if p.colly == "" && (cfg.programs.colly || cfg.programs.collyDOM || cfg.programs.collyBleve) {
		if p.colly, err = buildColly(ctx, filepath.Join(cfg.src, "bench"), tmp); err != nil {
			return false, err
		}
	}
	if p.spawn.Self, err = os.Executable(); err != nil {
		return false, fmt.Errorf("find this program for the launcher: %w", err)
	}
	p.spawn.MaxRSS = cfg.maxRSSMiB << 20

	gen := testweb.GenOptions{Origins: cfg.origins, PagesPerOrigin: cfg.pages, Seed: cfg.seed}
	var results []result
	ok = true
	for i := range cfg.runs {
		r, err := oneRun(ctx, cfg, gen, p, tmp)
		if err != nil {
			return false, fmt.Errorf("run %d: %w", i+1, err)
		}
		if problems := checks(r.crawl); r.ran.mandelbot && len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, mandelbot, run %d:\n  %s\n", i+1, strings.Join(problems, "\n  "))
		}
		if problems := checks(r.warc); r.ran.warc && len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, mandelbot --warc, run %d:\n  %s\n", i+1, strings.Join(problems, "\n  "))
		}
		if problems := collyChecks(r.colly); r.ran.colly && len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, Colly, run %d:\n  %s\n", i+1, strings.Join(problems, "\n  "))
		}
		for _, l := range []struct {
			ran  bool
			what string
			run  libRun
			sel  string
		}{{r.ran.lib, nameLib, r.lib, ""}, {r.ran.libDOM, nameLibDOM, r.libDOM, cfg.selector}} {
			if problems := libChecks(l.run, l.sel); l.ran && len(problems) > 0 {
				ok = false
				fmt.Fprintf(out, "\nCHECK FAILED, %s, run %d:\n  %s\n", l.what, i+1, strings.Join(problems, "\n  "))
			}
		}
		if problems := collyChecks(r.collyDOM); r.ran.collyDOM && len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, %s, run %d:\n  %s\n", nameCollyDOM, i+1, strings.Join(problems, "\n  "))
		}
		if r.ran.collyDOM && r.collyDOM.Err == nil && int(r.collyDOM.Report.Selected) != r.collyDOM.Report.Responses {
			// Against its responses: a page Colly fetched twice (see collyChecks) is parsed twice.
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, %s, run %d: %q selected %d times in %d responses\n", nameCollyDOM, i+1, cfg.selector, r.collyDOM.Report.Selected, r.collyDOM.Report.Responses)
		}
		if problems := bleveChecks(r.collyBleve); r.ran.collyBleve && len(problems) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, %s, run %d:\n  %s\n", nameCollyBleve, i+1, strings.Join(problems, "\n  "))
		}
		if t := r.colly.Tally; t.Duplicates > t.RepeatedPages {
			fmt.Fprintf(out, "Note, run %d: Colly asked for robots.txt %d times for %d origins (it fetches an origin's robots.txt once per link that arrives before the first copy is cached); not a failure.\n",
				i+1, t.Robots, cfg.origins)
		}
		results = append(results, r)
	}
	fmt.Fprintf(out, "load average at start: %s; at end: %s\n\n", startLoad, host.LoadAverage())
	if err := report(out, results, cfg.selector); err != nil {
		return false, err
	}
	return ok, nil
}

// oneRun starts a fresh web and runs on it, one after the other, the crawler, the ceiling
// (GETting what the crawler requested) and Colly, each counted by its own recorder; only the
// programs of cfg.programs run.
func oneRun(ctx context.Context, cfg config, gen testweb.GenOptions, p programs, tmp string) (result, error) {
	var sb switchboard
	// No request log: at 1,000,000 pages it would hold a gigabyte; the recorders count.
	web, err := testweb.Start(testweb.Generate(gen), testweb.Options{MaxLog: -1, OnRequest: sb.onRequest})
	if err != nil {
		return result{}, err
	}
	defer web.Close()
	cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	r := result{ran: cfg.programs}

	var urls []string
	if cfg.programs.mandelbot {
		rec := newRecorder(cfg.programs.ceiling)
		sb.start(rec)
		if r.crawl, urls, err = runCrawl(cctx, p.spawn, p.mandelbot, web, rec, tmp, cfg.settings, cfg.pages, false); err != nil {
			return r, err
		}
	} else {
		urls = webURLs(web, cfg.pages)
	}
	if cfg.programs.warc {
		rec := newRecorder(false)
		sb.start(rec)
		if r.warc, _, err = runCrawl(cctx, p.spawn, p.mandelbot, web, rec, tmp, cfg.settings, cfg.pages, true); err != nil {
			return r, err
		}
	}
	if cfg.programs.ceiling {
		rec := newRecorder(false)
		sb.start(rec)
		if r.loop, err = runCeiling(cctx, p.spawn, web, rec, tmp, urls, cfg.settings.Concurrency); err != nil {
			return r, err
		}
	}
	urls = nil
	if cfg.programs.colly {
		rec := newRecorder(false)
		sb.start(rec)
		r.colly = runColly(cctx, p.spawn, p.colly, web, rec, cfg.settings, cfg.pages)
	}
	if cfg.programs.lib {
		rec := newRecorder(false)
		sb.start(rec)
		r.lib = runLib(cctx, p.spawn, p.lib, web, rec, cfg.settings, cfg.pages, "")
	}
	if cfg.programs.libDOM {
		rec := newRecorder(false)
		sb.start(rec)
		r.libDOM = runLib(cctx, p.spawn, p.lib, web, rec, cfg.settings, cfg.pages, cfg.selector)
	}
	if cfg.programs.collyDOM {
		rec := newRecorder(false)
		sb.start(rec)
		r.collyDOM = runColly(cctx, p.spawn, p.colly, web, rec, cfg.settings, cfg.pages, "-select", cfg.selector)
	}
	if cfg.programs.collyBleve {
		rec := newRecorder(false)
		sb.start(rec)
		dir := filepath.Join(tmp, fmt.Sprintf("bleve-%d", time.Now().UnixNano()))
		r.collyBleve = runColly(cctx, p.spawn, p.colly, web, rec, cfg.settings, cfg.pages, "-bleve", dir)
		r.bleveBytes = dirBytes(dir)
		os.RemoveAll(dir)
	}
	sb.start(nil)
	return r, nil
}

// webURLs lists, for a ceiling run without a crawl to copy, every origin's robots.txt and then
// its pages, origins taken in turn (round robin), as a crawler with one request per origin
// would spread them.
func webURLs(web *testweb.Web, pagesPerOrigin int) []string {
	keys := web.Keys()
	out := make([]string, 0, len(keys)*(pagesPerOrigin+1))
	for _, k := range keys {
		out = append(out, web.URL(k, testweb.RobotsPath))
	}
	for n := range pagesPerOrigin {
		path := "/"
		if n > 0 {
			path = "/p/" + strconv.Itoa(n)
		}
		for _, k := range keys {
			out = append(out, web.URL(k, path))
		}
	}
	return out
}

// programSet says which programs a run starts.
type programSet struct{ mandelbot, warc, colly, ceiling, lib, libDOM, collyDOM, collyBleve bool }

func allPrograms() programSet { return programSet{mandelbot: true, colly: true, ceiling: true} }

// parsePrograms reads a comma-separated list of "mandelbot", "mandelbot-warc", "colly" and
// "ceiling".
func parsePrograms(v string) (programSet, error) {
	var s programSet
	for _, name := range strings.Split(v, ",") {
		switch strings.TrimSpace(name) {
		case "mandelbot":
			s.mandelbot = true
		case "mandelbot-warc":
			s.warc = true
		case "colly":
			s.colly = true
		case "ceiling":
			s.ceiling = true
		case "lib":
			s.lib = true
		case "lib-dom":
			s.libDOM = true
		case "colly-dom":
			s.collyDOM = true
		case "colly-bleve":
			s.collyBleve = true
		default:
			return s, fmt.Errorf("unknown program %q: want mandelbot, mandelbot-warc, colly, ceiling, lib, lib-dom, colly-dom or colly-bleve", name)
		}
	}
	return s, nil
}

// checks returns what went wrong in a crawl: it must end because no work was left, ask for
// every page exactly once, never for a disallowed page, and for each origin's robots.txt
// before its pages.
func checks(c crawlRun) []string {
	var p []string
	t := c.Tally
	if c.StopReason != mandelbotcli.FinishedReason {
		p = append(p, fmt.Sprintf("the crawl ended with %q, not %q", c.StopReason, mandelbotcli.FinishedReason))
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
	if t.BeforeRobots > 0 {
		p = append(p, fmt.Sprintf("%d requests before their origin's robots.txt (rule 20): %v", t.BeforeRobots, t.BeforeRobotsSeen))
	}
	return p
}
