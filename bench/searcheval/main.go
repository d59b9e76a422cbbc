// Command searcheval measures how often search finds the page a person wants (issue 11): it
// serves a real documentation site nobody here wrote (the HTML of a Debian package, extracted
// beforehand) on 127.0.0.1, crawls it with the real `mandelbot crawl` binary, runs every query
// of a judged set through `mandelbot search --json --limit 10`, and prints MRR@10, success@1,
// success@10 and each query's rank as Markdown tables.
//
// Usage (from bench/, after fetching the site as README.md says):
//
//	go run ./searcheval [-site DIR] [-queries FILE] [-data DIR | -reuse DIR] [-mandelbot BIN]
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults of the flags.
const (
	// defaultSite is where README.md's commands extract postgresql-doc-15 (bench/bin/ is
	// ignored by git).
	defaultSite = "bin/pgdoc/root/usr/share/doc/postgresql-doc-15/html"
	// defaultHost is the name the site is crawled under; --resolve maps it to 127.0.0.1.
	defaultHost = "postgresql-docs.test"
	// defaultPerOrigin lets the crawler keep 4 requests in flight to the one origin, so that
	// the crawl of about 1,200 pages takes seconds; it changes nothing in what is indexed.
	defaultPerOrigin = 4
	defaultTimeout   = 15 * time.Minute
)

type config struct {
	site, queries, host string
	data, reuse         string
	src, bin            string
	perOrigin           int
	timeout             time.Duration
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the evaluation; it returns the exit status: 0 done, 1 the run
// broke (the crawl did not finish, a search failed), 2 usage or unreadable input.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("searcheval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.site, "site", defaultSite, "directory served as the site's root")
	fs.StringVar(&cfg.queries, "queries", "searcheval/queries.tsv", "the judged query set")
	fs.StringVar(&cfg.host, "host", defaultHost, "host name the site is crawled under")
	fs.StringVar(&cfg.data, "data", "", "crawl into this data directory (it must not exist) and keep it")
	fs.StringVar(&cfg.reuse, "reuse", "", "do not crawl: search the crawl already in this data directory")
	fs.StringVar(&cfg.src, "src", "..", "source directory of the main module (mandelbot is built from SRC/cmd/mandelbot)")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.IntVar(&cfg.perOrigin, "per-origin", defaultPerOrigin, "the crawler's --per-origin")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (cfg.data != "" && cfg.reuse != "") || cfg.perOrigin < 1 {
		fmt.Fprintln(stderr, "searcheval: no arguments; -data and -reuse exclude each other; -per-origin >= 1")
		return 2
	}
	qs, err := loadQueries(cfg.queries, cfg.site)
	if err != nil {
		fmt.Fprintf(stderr, "searcheval: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	if err := evaluate(ctx, cfg, qs, stdout); err != nil {
		fmt.Fprintf(stderr, "searcheval: %v\n", err)
		return 1
	}
	return 0
}

// loadQueries reads the judged set and checks that every page it names exists under site, so
// that a wrong -site (or another version of the package) is caught before anything runs.
func loadQueries(file, site string) (QuerySet, error) {
	f, err := os.Open(file)
	if err != nil {
		return QuerySet{}, fmt.Errorf("query set: %w", err)
	}
	defer f.Close()
	qs, err := ParseQuerySet(f)
	if err != nil {
		return QuerySet{}, err
	}
	var missing []string
	for _, q := range qs.Queries {
		for _, p := range q.Relevant {
			if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(p))); err != nil {
				missing = append(missing, fmt.Sprintf("%s (line %d)", p, q.Line))
			}
		}
	}
	if len(missing) > 0 {
		return QuerySet{}, fmt.Errorf("site %s lacks pages the query set names: %s (see bench/README.md to fetch the site)",
			site, strings.Join(missing[:min(len(missing), 5)], ", "))
	}
	return qs, nil
}

// evaluate crawls the site (unless cfg.reuse), runs the queries and prints the report.
func evaluate(ctx context.Context, cfg config, qs QuerySet, stdout io.Writer) error {
	tmp, err := os.MkdirTemp("", "searcheval-")
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := cfg.bin
	if bin == "" {
		if bin, err = mandelbotcli.Build(ctx, cfg.src, tmp); err != nil {
			return err
		}
	}
	pages, err := htmlPages(cfg.site)
	if err != nil {
		return err
	}
	rep := report{Header: qs.Header, Site: cfg.site, Pages: pages}
	data := cfg.reuse
	if data == "" {
		data = cfg.data
		if data == "" {
			data = filepath.Join(tmp, "data")
		} else if _, err := os.Stat(data); err == nil {
			return fmt.Errorf("-data %s exists; remove it or use -reuse", data)
		}
		st, err := newSite(cfg.site)
		if err != nil {
			return err
		}
		defer st.Close()
		port, stop, err := listen(st)
		if err != nil {
			return err
		}
		start := time.Now()
		cr, err := crawl(ctx, bin, data, cfg.host, port, cfg.perOrigin)
		rep.CrawlTime = time.Since(start)
		stop()
		rep.Crawl = cr
		rep.Requests, rep.ByStatus = st.Counts()
		if err != nil {
			return err
		}
		if cr.StopReason != mandelbotcli.FinishedReason {
			return fmt.Errorf("the crawl ended with %q, not %q", cr.StopReason, mandelbotcli.FinishedReason)
		}
	}
	for _, q := range qs.Queries {
		page, note, err := search(ctx, bin, data, q.Query)
		if err != nil {
			return err
		}
		o := Outcome{Judged: q, Total: page.Total, Err: note}
		for _, r := range page.Results {
			o.Results = append(o.Results, Hit{URL: r.URL, Path: sitePath(r.URL, cfg.host), LinkOnly: r.LinkOnly})
		}
		o.score()
		rep.Outcomes = append(rep.Outcomes, o)
	}
	return rep.write(stdout)
}
