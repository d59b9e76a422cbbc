// Command politebench measures a crawl at the politeness limit (issue 31): a latency web of
// many origins on loopback, each on an address of its own in 127/8 and all on one port, every
// answer held back a set time with jitter, crawled with a delay between an origin's answer and
// its next request. At that delay no crawler can beat origins / (delay + latency) pages per
// second; the figure that matters is how close it comes, which is set by how many origins it
// keeps busy at once. It runs the real `mandelbot crawl` binary (with default flags but
// --delay, unless -mandelbot-flags adds some) and Colly v2.3.0 (LimitRule{Parallelism: 1,
// Delay}) one after the other on the same web, and checks from the web's request log that
// each was polite (never two requests in flight to one origin, the delay held, robots.txt
// first and obeyed) and complete (every page once).
//
// Usage (from bench/):
//
//	go run ./politebench [-origins 2000] [-pages 10] [-latency 200ms] [-jitter 0.5] [-delay 2s]
//	                     [-programs mandelbot,colly] [-mandelbot-flags "--concurrency 1000"] [-logs DIR]
//	                     [-mandelbot PATH]
//
// Besides the table it prints each crawler's timeline: when its first request began and its
// last answer ended, from its start, and the tail from that last answer to its exit (the
// search index catching up, issue 31). With -logs, each crawl process's stderr (its progress
// lines) is kept in DIR.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fractle/mandelbot/bench/internal/gobuild"
	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/bench/internal/pgschema"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb/latencyweb"
)

// Defaults of the flags: the web of issue 31's first measurement.
const (
	defaultOrigins = 2000
	defaultPages   = 10
	defaultLatency = 200 * time.Millisecond
	defaultJitter  = 0.5
	defaultDelay   = 2 * time.Second
	defaultTimeout = 15 * time.Minute // per child
	// defaultMaxRSSMiB stops a child whose RSS passes it.
	defaultMaxRSSMiB = 4096
	// defaultPG is the PostgreSQL database of the pgN programs; each run makes a schema of its
	// own in it and drops it afterwards.
	defaultPG = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	// maxWorkers bounds N in pgN.
	maxWorkers = 16
)

type config struct {
	web           latencyweb.Options
	pg            string
	delay         time.Duration
	timeout       time.Duration
	src           string
	programs      []string
	mandelbotArgs []string
	logs          string
	// bin is a mandelbot binary to run instead of building one from src (to compare builds).
	bin string
}

func main() {
	if code, ok := spawn.Main(os.Args[1:], os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark; it returns 0 when every check passed, 1 when one
// failed or a run broke, 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("politebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.web.Origins, "origins", defaultOrigins, "origins of the latency web, each on its own loopback address")
	fs.IntVar(&cfg.web.Pages, "pages", defaultPages, "pages per origin, the home page included")
	fs.DurationVar(&cfg.web.Latency, "latency", defaultLatency, "mean time an answer is held back")
	fs.Float64Var(&cfg.web.Jitter, "jitter", defaultJitter, "the latency varies uniformly by this fraction either way (0-1)")
	fs.DurationVar(&cfg.delay, "delay", defaultDelay, "the crawlers' delay between an origin's answer and its next request")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "stop a crawler that has not finished after this long")
	fs.StringVar(&cfg.src, "src", "..", "the main module's source directory (mandelbot is built from it)")
	programs := fs.String("programs", "mandelbot,colly", "comma-separated: mandelbot (one process, SQLite), pgN (N workers on one PostgreSQL store, e.g. pg3), colly")
	fs.StringVar(&cfg.pg, "pg", defaultPG, "the PostgreSQL database of the pgN programs")
	extra := fs.String("mandelbot-flags", "", "more flags for `mandelbot crawl`, space-separated")
	fs.Uint64Var(&cfg.web.Seed, "seed", 1, "seed of the latencies")
	fs.StringVar(&cfg.bin, "mandelbot", "", "run this mandelbot binary instead of building one from -src")
	fs.StringVar(&cfg.logs, "logs", "", "keep each crawl process's stderr in this directory (PROGRAM-WORKER.log)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.programs = strings.Split(*programs, ",")
	for _, p := range cfg.programs {
		if _, err := workersOf(p); err != nil {
			fmt.Fprintf(stderr, "politebench: -programs: %v\n", err)
			return 2
		}
	}
	cfg.mandelbotArgs = strings.Fields(*extra)
	ok, err := bench(context.Background(), cfg, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "politebench:", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// workersOf says how many PostgreSQL workers program p runs: 0 for mandelbot (SQLite) and
// colly, N for pgN.
func workersOf(p string) (int, error) {
	switch p {
	case "mandelbot", "colly":
		return 0, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(p, "pg")); err == nil && strings.HasPrefix(p, "pg") && n >= 1 && n <= maxWorkers {
		return n, nil
	}
	return 0, fmt.Errorf("unknown program %q (want mandelbot, pg1 ... pg%d, colly)", p, maxWorkers)
}

// result is one crawler's run: for N workers, the longest wall time, the sum of their CPU and
// the largest peak RSS.
type result struct {
	name       string
	run        spawn.Run
	gate       latencyweb.Report
	start, end time.Time // the crawler's start and (its last worker's) exit
	err        error
}

func bench(ctx context.Context, cfg config, out io.Writer) (bool, error) {
	web, err := latencyweb.Start(cfg.web)
	if err != nil {
		return false, err
	}
	defer web.Close()
	fmt.Fprintf(out, "politebench: %d origins x %d pages on 127.10.0.0/16 port %d, answers in %v ± %.0f%%, delay %v\n",
		cfg.web.Origins, cfg.web.Pages, web.Port(), cfg.web.Latency, cfg.web.Jitter*100, cfg.delay)
	fmt.Fprintf(out, "politeness limit: %d / (%v + %v) = %.0f pages/s\n", cfg.web.Origins, cfg.delay, cfg.web.Latency, web.Limit(cfg.delay))
	startLoad := host.LoadAverage()
	fmt.Fprintf(out, "load average at start: %s\n", startLoad)

	tmp, err := os.MkdirTemp("", "politebench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	opts := spawn.Options{MaxRSS: defaultMaxRSSMiB << 20}
	if opts.Self, err = os.Executable(); err != nil {
		return false, fmt.Errorf("find this program for the launcher: %w", err)
	}
	var results []result
	for i, p := range cfg.programs {
		r := result{name: p}
		var argv []string
		workers, _ := workersOf(p)
		switch {
		case p == "mandelbot" || workers > 0:
			bin, err := mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp)
			if err != nil {
				return false, err
			}
			store := []string{"--data", filepath.Join(tmp, fmt.Sprintf("data-%d", i))}
			r.name = "mandelbot --delay " + cfg.delay.String()
			if workers > 0 {
				schema := fmt.Sprintf("politebench_%d_%d", os.Getpid(), i)
				defer pgschema.Drop(context.Background(), cfg.pg, schema) //nolint:errcheck // best effort
				store = []string{"--store", withSchema(cfg.pg, schema)}
				r.name = fmt.Sprintf("%d x mandelbot on PostgreSQL --delay %s", workers, cfg.delay)
			}
			argv = append(append([]string{bin, "crawl", "--allow-private", "--delay", cfg.delay.String()}, store...), cfg.mandelbotArgs...)
			argv = append(argv, web.Seeds()...)
			r.name = strings.Join(append([]string{r.name}, cfg.mandelbotArgs...), " ")
		case p == "colly":
			var bin string
			if bin, err = gobuild.Binary(ctx, filepath.Join(cfg.src, "bench"), "./crawlbench/collypeer", tmp); err != nil {
				return false, err
			}
			argv = []string{bin, "-concurrency", strconv.Itoa(cfg.web.Origins), "-per-origin", "1", "-delay", cfg.delay.String()}
			for _, s := range web.Seeds() {
				host := strings.TrimSuffix(strings.TrimPrefix(s, "http://"), "/")
				addr, _, _ := strings.Cut(host, ":")
				argv = append(argv, "-resolve", host+":"+addr)
			}
			argv = append(argv, web.Seeds()...)
			r.name = "Colly v2.3.0, Parallelism 1, Delay " + cfg.delay.String()
		}
		cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
		var runs []spawn.Run
		r.start = time.Now()
		r.run, runs, r.err = measureAll(cctx, opts, max(workers, 1), argv)
		r.end = time.Now()
		cancel()
		if err := keepLogs(cfg.logs, p, runs); err != nil {
			return false, err
		}
		if r.err != nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			r.err = fmt.Errorf("did not finish within %v", cfg.timeout)
		}
		r.gate = web.Gate(cfg.delay)
		results = append(results, r)
	}
	fmt.Fprintf(out, "load average at start: %s; at end: %s\n\n", startLoad, host.LoadAverage())
	return report(out, web, cfg.delay, results)
}

// keepLogs writes each run's stderr to dir/program-i.log; an empty dir keeps nothing.
func keepLogs(dir, program string, runs []spawn.Run) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-logs: %w", err)
	}
	for i, r := range runs {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.log", program, i)), []byte(r.Stderr), 0o644); err != nil {
			return fmt.Errorf("-logs: %w", err)
		}
	}
	return nil
}

// measureAll runs n copies of argv at once (the workers of a cluster) and returns one Run: the
// longest wall time, the sum of the CPU times, the largest peaks; the first error. It returns
// each copy's Run too.
func measureAll(ctx context.Context, opts spawn.Options, n int, argv []string) (spawn.Run, []spawn.Run, error) {
	runs := make([]spawn.Run, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { runs[i], errs[i] = spawn.Measure(ctx, opts, argv[0], argv[1:]...) })
	}
	wg.Wait()
	all := runs[0]
	for i, r := range runs[1:] {
		all.Wall = max(all.Wall, r.Wall)
		all.CPU += r.CPU
		all.RusageRSS = max(all.RusageRSS, r.RusageRSS)
		all.SampledHWM = max(all.SampledHWM, r.SampledHWM)
		if errs[0] == nil && errs[i+1] != nil {
			errs[0] = fmt.Errorf("worker %d: %w", i+1, errs[i+1])
		}
	}
	return all, runs, errs[0]
}

// withSchema returns the PostgreSQL url with its schema parameter set.
func withSchema(url, schema string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "schema=" + schema
}

// report prints one row per crawler and the gate's failures; it says whether all passed.
func report(out io.Writer, web *latencyweb.Web, delay time.Duration, results []result) (bool, error) {
	t := mdtable.Table{
		Header: []string{"crawler", "pages", "wall s", "pages/s", "of limit", "CPU us/page", "peak RSS MiB", "shortest gap"},
		Right:  []bool{false, true, true, true, true, true, true, true},
	}
	ok := true
	limit := web.Limit(delay)
	var notes []string
	for _, r := range results {
		pages := r.gate.Pages
		wall := r.run.Wall.Seconds()
		rate := float64(pages) / wall
		cpu, rss := "-", "-" // a child stopped at -timeout reports neither
		if r.run.PeakRSS() > 0 {
			rss = fmt.Sprintf("%.0f", float64(r.run.PeakRSS())/(1<<20))
		}
		if pages > 0 && r.run.CPU > 0 {
			cpu = fmt.Sprintf("%.0f", float64(r.run.CPU.Microseconds())/float64(pages))
		}
		gap := "-"
		if r.gate.ShortestGap >= 0 {
			gap = r.gate.ShortestGap.Round(time.Millisecond).String()
		}
		t.Add(r.name, strconv.Itoa(pages), fmt.Sprintf("%.1f", wall), fmt.Sprintf("%.0f", rate),
			fmt.Sprintf("%.0f%%", 100*rate/limit), cpu, rss, gap)
		problems := r.gate.Problems()
		if r.err != nil {
			problems = append([]string{r.err.Error()}, problems...)
		}
		if len(problems) > 0 {
			ok = false
			notes = append(notes, fmt.Sprintf("CHECK FAILED, %s:\n  %s", r.name, strings.Join(problems, "\n  ")))
		}
	}
	if err := t.Write(out); err != nil {
		return false, err
	}
	fmt.Fprintf(out, "\npages/s is pages fetched over the crawler's whole run (start to exit); the limit is %.0f pages/s (%d pages need at least %.1f s).\n",
		limit, web.Pages(), web.MinDuration(delay).Seconds())
	if err := timeline(out, results); err != nil {
		return false, err
	}
	for _, n := range notes {
		fmt.Fprintln(out, "\n"+n)
	}
	return ok, nil
}

// timeline prints, for each crawler that made a request, when its first request began and its
// last answer ended, counted from its start, and the tail from that answer to its exit: the
// time a crawler takes beyond its requests (issue 31: a PostgreSQL worker's index catch-up).
func timeline(out io.Writer, results []result) error {
	t := mdtable.Table{
		Header: []string{"crawler", "first request s", "last answer s", "exit s", "tail s"},
		Right:  []bool{false, true, true, true, true},
	}
	for _, r := range results {
		if r.gate.First.IsZero() || r.start.IsZero() {
			continue
		}
		first, last, exit := r.gate.First.Sub(r.start), r.gate.Last.Sub(r.start), r.end.Sub(r.start)
		t.Add(r.name, fmt.Sprintf("%.1f", first.Seconds()), fmt.Sprintf("%.1f", last.Seconds()),
			fmt.Sprintf("%.1f", exit.Seconds()), fmt.Sprintf("%.1f", (exit-last).Seconds()))
	}
	fmt.Fprintln(out)
	return t.Write(out)
}
