// Command exportbench measures `mandelbot export --documents` (issue 10): the peak RSS and CPU
// time of the export of a crawl of 2,500, 10,000 and 40,000 pages of a generated web, beside
// the plain `mandelbot export` (one line per URL, no content) of the same store as its peer.
// The documents are read from the store a batch at a time, so the peak must stay flat as the
// crawl grows.
//
// Each store is filled by a real crawl (`mandelbot crawl`) of testweb.Generate; each export is
// the same binary, built from the source tree, run under spawn's launcher, writing to a file.
//
// Usage (from bench/):
//
//	go run ./exportbench [-sizes 2500,10000,40000] [-words 300] [-src ..]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// Defaults of the flags.
const (
	defaultSizes   = "2500,10000,40000" // pages crawled (issue 10: "a 10,000-page crawl", and either side)
	defaultWords   = 300                // body words per generated page
	defaultOrigins = 10
	defaultLinks   = 8
	// crawlConcurrency is the crawl that fills each store; it is not what is measured.
	crawlConcurrency = 32
)

type config struct {
	sizes          []int
	words, origins int
	src            string
	timeout        time.Duration
}

func main() {
	if code, ok := spawn.Main(os.Args[1:], os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark; it returns the exit status: 0 done, 1 failed, 2 usage.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	var sizes string
	fs := flag.NewFlagSet("exportbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&sizes, "sizes", defaultSizes, "pages per crawl, comma-separated")
	fs.IntVar(&cfg.words, "words", defaultWords, "body words per page")
	fs.IntVar(&cfg.origins, "origins", defaultOrigins, "origins of the generated web")
	fs.StringVar(&cfg.src, "src", "..", "the main module's source directory, to build mandelbot from")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "the whole benchmark's time limit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for f := range strings.SplitSeq(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < cfg.origins {
			fmt.Fprintf(stderr, "exportbench: -sizes: %q is not a page count of at least -origins\n", f)
			return 2
		}
		cfg.sizes = append(cfg.sizes, n)
	}
	if fs.NArg() > 0 || cfg.words < 1 || cfg.origins < 1 {
		fmt.Fprintln(stderr, "exportbench: -words and -origins must be positive; no arguments")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	if err := bench(ctx, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "exportbench:", err)
		return 1
	}
	return 0
}

// result is one size's crawl and its two exports.
type result struct {
	pages           int // fetched pages, as the plain export lists them
	documents, urls exported
}

// exported is one measured export.
type exported struct {
	spawn.Run
	lines   int
	bytes   int64
	fetched int // lines of a fetched page (kind page, fetched_at set)
}

func bench(ctx context.Context, cfg config, stdout io.Writer) error {
	tmp, err := os.MkdirTemp("", "exportbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := mandelbotcli.Build(ctx, cfg.src, tmp)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "load average before: %s\n", host.LoadAverage())
	var results []result
	for _, n := range cfg.sizes {
		r, err := measure(ctx, cfg, n, bin, self, tmp)
		if err != nil {
			return fmt.Errorf("%d pages: %w", n, err)
		}
		if r.documents.lines != r.pages || r.pages < n*9/10 {
			return fmt.Errorf("%d pages: export --documents wrote %d lines; the crawl fetched %d pages", n, r.documents.lines, r.pages)
		}
		results = append(results, r)
	}
	fmt.Fprintf(stdout, "load average after: %s\n\n", host.LoadAverage())
	return report(stdout, results)
}

// measure crawls a generated web of n pages into a new store, then exports it twice.
func measure(ctx context.Context, cfg config, n int, bin, self, tmp string) (result, error) {
	var r result
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: cfg.origins, PagesPerOrigin: n / cfg.origins,
		LinksPerPage: defaultLinks, WordsPerPage: cfg.words, CrossPercent: -1, Seed: 1}), testweb.Options{})
	if err != nil {
		return r, err
	}
	defer web.Close()
	db := filepath.Join(tmp, fmt.Sprintf("crawl-%d.db", n))
	args := []string{"crawl", "--store", "sqlite:" + db, "--delay", "0", "--concurrency", strconv.Itoa(crawlConcurrency),
		"--max-pages", strconv.Itoa(2 * n)}
	for _, r := range web.Resolve() {
		args = append(args, "--resolve", r)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, web.Seeds()...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return r, fmt.Errorf("crawl: %w\n%s", err, out)
	}
	opts := spawn.Options{Self: self}
	if r.documents, err = export(ctx, opts, bin, db, filepath.Join(tmp, "documents.jsonl"), "--documents"); err != nil {
		return r, err
	}
	if r.urls, err = export(ctx, opts, bin, db, filepath.Join(tmp, "urls.jsonl")); err != nil {
		return r, err
	}
	r.pages = r.urls.fetched
	return r, nil
}

// export runs `mandelbot export --store sqlite:DB ARGS > out` (the shell execs mandelbot, so
// the launcher measures mandelbot itself) and counts the lines written.
func export(ctx context.Context, opts spawn.Options, bin, db, out string, args ...string) (exported, error) {
	script := `out=$1; shift; exec "$@" > "$out"`
	argv := append([]string{"-c", script, "sh", out, bin, "export", "--store", "sqlite:" + db}, args...)
	run, err := spawn.Measure(ctx, opts, "/bin/sh", argv...)
	e := exported{Run: run}
	if err != nil {
		return e, fmt.Errorf("export %s: %w", strings.Join(args, " "), err)
	}
	f, err := os.Open(out)
	if err != nil {
		return e, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := br.ReadSlice('\n')
		e.bytes += int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return e, err
		}
		e.lines++
		var u struct {
			Kind      string     `json:"kind"`
			FetchedAt *time.Time `json:"fetched_at"`
		}
		if json.Unmarshal(line, &u) == nil && u.Kind == "page" && u.FetchedAt != nil {
			e.fetched++
		}
	}
	return e, os.Remove(out)
}

func report(w io.Writer, results []result) error {
	t := mdtable.Table{
		Header: []string{"pages", "--documents MiB out", "peak RSS MiB", "CPU us/page", "seconds", "peer: export peak RSS MiB", "peer CPU us/page", "RSS ratio"},
		Right:  []bool{true, true, true, true, true, true, true, true},
	}
	mib := func(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) }
	perPage := func(d time.Duration, n int) string {
		return strconv.FormatFloat(float64(d.Microseconds())/float64(max(n, 1)), 'f', 0, 64)
	}
	for _, r := range results {
		d, u := r.documents, r.urls
		t.Add(strconv.Itoa(r.pages), mib(d.bytes), mib(d.PeakRSS()), perPage(d.CPU, r.pages), strconv.FormatFloat(d.Wall.Seconds(), 'f', 2, 64),
			mib(u.PeakRSS()), perPage(u.CPU, r.pages), strconv.FormatFloat(float64(d.PeakRSS())/float64(max(u.PeakRSS(), 1)), 'f', 2, 64))
	}
	return t.Write(w)
}
