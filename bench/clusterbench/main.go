// Command clusterbench measures distributed mode (issue 12): pages/s of 1, 2 and 3 `mandelbot
// crawl` processes sharing one PostgreSQL schema, against one process on the embedded SQLite
// store, on the same generated testweb; both CPU-bound (--delay 0) and delay-bound (--delay D,
// where per-origin politeness, not CPU, limits one process). It reports the workers' CPU µs per
// page beside the PostgreSQL server's (both from the kernel's accounting), so that it shows which
// one is the limit, and the rows and bytes per URL the crawl leaves in PostgreSQL.
//
//	cd bench && go run ./clusterbench                       # defaults below
//	go run ./clusterbench -origins 200 -pages 50 -workers 1,2,3 -modes cpu,delay
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Defaults: a web large enough that a run lasts several seconds at 500 pages/s.
const (
	defaultOrigins     = 100
	defaultPages       = 50
	defaultConcurrency = 16
	defaultDelay       = 100 * time.Millisecond
	defaultPG          = "postgres://root@127.0.0.1:5432/test"
)

type config struct {
	origins, pages, concurrency int
	leaseBatch                  int // --lease-batch of the PostgreSQL workers; 0: the default
	delay                       time.Duration
	workers                     []int
	modes                       []string
	pg                          string
	src                         string
	bin                         string // a built mandelbot to run instead of building src (-mandelbot)
	sqlite                      bool   // run the SQLite crawl each mode compares with (-sqlite)
	keep                        bool   // keep the PostgreSQL schemas for inspection rather than drop them (-keep)
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	var workers, modes string
	fs := flag.NewFlagSet("clusterbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.origins, "origins", defaultOrigins, "origins of the generated web")
	fs.IntVar(&cfg.pages, "pages", defaultPages, "pages per origin")
	fs.IntVar(&cfg.concurrency, "concurrency", defaultConcurrency, "--concurrency of each crawl process")
	fs.DurationVar(&cfg.delay, "delay", defaultDelay, "--delay of the delay-bound runs")
	fs.IntVar(&cfg.leaseBatch, "lease-batch", 0, "--lease-batch of the PostgreSQL workers (0: the crawler's default, 4 per --concurrency)")
	fs.StringVar(&workers, "workers", "1,2,3", "numbers of PostgreSQL workers to run, comma-separated")
	fs.StringVar(&modes, "modes", "cpu,delay", "cpu (--delay 0) and/or delay (--delay -delay)")
	fs.StringVar(&cfg.pg, "pg", defaultPG, "PostgreSQL URL; each run gets a schema of its own, dropped after")
	fs.StringVar(&cfg.src, "src", "..", "the main module's directory (the mandelbot command is built from it)")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.BoolVar(&cfg.sqlite, "sqlite", true, "also crawl with one SQLite process, the runs' yardstick (false: PostgreSQL only, the 'vs SQLite' column empty)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep each run's PostgreSQL schema (printed) for inspection instead of dropping it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, w := range strings.Split(workers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "clusterbench: -workers %q: want positive numbers\n", workers)
			return 2
		}
		cfg.workers = append(cfg.workers, n)
	}
	for _, m := range strings.Split(modes, ",") {
		if m != "cpu" && m != "delay" {
			fmt.Fprintf(stderr, "clusterbench: -modes %q: want cpu and/or delay\n", modes)
			return 2
		}
		cfg.modes = append(cfg.modes, m)
	}
	if fs.NArg() > 0 || cfg.origins < 1 || cfg.pages < 1 || cfg.concurrency < 1 || cfg.delay <= 0 || cfg.leaseBatch < 0 {
		fmt.Fprintln(stderr, "clusterbench: -origins, -pages, -concurrency and -delay must be positive, -lease-batch not negative; no arguments")
		return 2
	}
	if err := bench(context.Background(), cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "clusterbench:", err)
		return 1
	}
	return 0
}
