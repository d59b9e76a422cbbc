// Command searcheval measures how often search finds the page a person wants (issue 11): it
// serves a real documentation site nobody here wrote (the HTML of a Debian package, extracted
// beforehand) on 127.0.0.1, crawls it with the real `mandelbot crawl` binary, runs every query
// of a judged set through `mandelbot search --json --limit 10`, and prints MRR@10, success@1,
// success@10 and each query's rank as Markdown tables.
//
// Usage (from bench/, after fetching the site as README.md says):
//
//	go run ./searcheval [-site DIR] [-queries FILE] [-data DIR | -reuse DIR] [-mandelbot BIN]
//	go run ./searcheval -sets postgresql,httpd [-set SITE,HOST,QUERIES]... [-data DIR | -reuse DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of the flags.
const (
	// defaultSite is where sitebench/setup.sh unpacks postgresql-doc-15, the same copy that
	// sitebench serves (bench/bin/ is ignored by git).
	defaultSite = "bin/postgresql-doc-15/usr/share/doc/postgresql-doc-15/html"
	// defaultHost is the name the site is crawled under; --resolve maps it to 127.0.0.1.
	defaultHost    = "postgresql-docs.test"
	defaultQueries = "searcheval/queries.tsv"
	// defaultPerOrigin lets the crawler keep 4 requests in flight to the one origin, so that
	// the crawl of about 1,200 pages takes seconds; it changes nothing in what is indexed.
	defaultPerOrigin = 4
	defaultTimeout   = 15 * time.Minute
)

// judgedSet is one judged set: a site served from a directory under a host name, and the
// queries judged on it. Name names the set in the report and, with -data or -reuse and
// several sets, the set's data directory under the one given.
type judgedSet struct {
	Name, Site, Host, Queries string
}

// knownSets are the judged sets that -sets names (README.md says how to fetch each site into
// bench/bin/).
var knownSets = []judgedSet{
	{Name: "postgresql", Site: defaultSite, Host: defaultHost, Queries: defaultQueries},
	// issue 32 part 5: the Apache httpd 2.4 manual, from the Debian package apache2-doc
	// (sitebench/setup.sh apache2-doc unpacks it there).
	{Name: "httpd", Site: "bin/apache2-doc/usr/share/doc/apache2-doc/manual/en", Host: "httpd-docs.test",
		Queries: "searcheval/queries-httpd.tsv"},
}

type config struct {
	site, queries, host string
	sets                []judgedSet // from -sets and -set; empty: the one set of -site, -queries, -host
	data, reuse         string
	src, bin            string
	perOrigin           int
	timeout             time.Duration
}

// setFlag is -set SITE,HOST,QUERIES, repeatable: a judged set not in knownSets.
type setFlag struct{ sets *[]judgedSet }

func (f setFlag) String() string { return "" }

func (f setFlag) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return fmt.Errorf("want SITE,HOST,QUERIES, got %q", v)
	}
	name := strings.TrimSuffix(filepath.Base(parts[2]), filepath.Ext(parts[2]))
	*f.sets = append(*f.sets, judgedSet{Name: name, Site: parts[0], Host: parts[1], Queries: parts[2]})
	return nil
}

// namedSets returns the known sets list names ("all": every one), in list order.
func namedSets(list string) ([]judgedSet, error) {
	var out []judgedSet
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "all" {
			out = append(out, knownSets...)
			continue
		}
		i := slices.IndexFunc(knownSets, func(s judgedSet) bool { return s.Name == n })
		if i < 0 {
			names := make([]string, len(knownSets))
			for j, s := range knownSets {
				names[j] = s.Name
			}
			return nil, fmt.Errorf("-sets: unknown set %q (known: %s, all)", n, strings.Join(names, ", "))
		}
		out = append(out, knownSets[i])
	}
	return out, nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the evaluation; it returns the exit status: 0 done, 1 the run
// broke (the crawl did not finish, a search failed), 2 usage or unreadable input.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	var setList string
	var custom []judgedSet
	fs := flag.NewFlagSet("searcheval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.site, "site", defaultSite, "directory served as the site's root")
	fs.StringVar(&cfg.queries, "queries", defaultQueries, "the judged query set")
	fs.StringVar(&cfg.host, "host", defaultHost, "host name the site is crawled under")
	fs.StringVar(&setList, "sets", "", "comma-separated judged sets to run instead of -site/-queries/-host: postgresql, httpd, all")
	fs.Var(setFlag{&custom}, "set", "a judged set SITE,HOST,QUERIES to run (repeatable; with -sets, after them)")
	fs.StringVar(&cfg.data, "data", "", "crawl into this data directory (it must not exist) and keep it; with several sets, one subdirectory per set")
	fs.StringVar(&cfg.reuse, "reuse", "", "do not crawl: search the crawl already in this data directory (several sets: DIR/SET)")
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
	if setList != "" {
		named, err := namedSets(setList)
		if err != nil {
			fmt.Fprintf(stderr, "searcheval: %v\n", err)
			return 2
		}
		cfg.sets = named
	}
	cfg.sets = append(cfg.sets, custom...)
	if len(cfg.sets) > 0 {
		explicit := false
		fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "site" || f.Name == "queries" || f.Name == "host" })
		if explicit {
			fmt.Fprintln(stderr, "searcheval: -sets and -set exclude -site, -queries and -host")
			return 2
		}
		seen := map[string]bool{}
		for _, s := range cfg.sets {
			if seen[s.Name] {
				fmt.Fprintf(stderr, "searcheval: set %q given twice\n", s.Name)
				return 2
			}
			seen[s.Name] = true
		}
	}
	plans, err := planSets(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "searcheval: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	if err := evaluateAll(ctx, cfg, plans, stdout); err != nil {
		fmt.Fprintf(stderr, "searcheval: %v\n", err)
		return 1
	}
	return 0
}

// setPlan is one judged set ready to run: its queries loaded and checked, and where its crawl
// goes (data) or comes from (reuse).
type setPlan struct {
	judgedSet
	qs          QuerySet
	data, reuse string
}

// planSets loads every set's queries (checking their pages exist) before anything runs. With
// the one legacy set, -data and -reuse are used as given; with -sets or -set, each set gets
// DIR/NAME under them.
func planSets(cfg config) ([]setPlan, error) {
	sets := cfg.sets
	legacy := len(sets) == 0
	if legacy {
		sets = []judgedSet{{Name: "default", Site: cfg.site, Host: cfg.host, Queries: cfg.queries}}
	}
	var plans []setPlan
	for _, s := range sets {
		qs, err := loadQueries(s.Queries, s.Site)
		if err != nil {
			return nil, fmt.Errorf("set %s: %w", s.Name, err)
		}
		p := setPlan{judgedSet: s, qs: qs, data: cfg.data, reuse: cfg.reuse}
		if !legacy {
			if p.data != "" {
				p.data = filepath.Join(cfg.data, s.Name)
			}
			if p.reuse != "" {
				p.reuse = filepath.Join(cfg.reuse, s.Name)
			}
		}
		plans = append(plans, p)
	}
	return plans, nil
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

// evaluateAll builds mandelbot once, runs every set in turn, and prints each set's report; with
// several sets it ends with one table that sets them side by side.
func evaluateAll(ctx context.Context, cfg config, plans []setPlan, stdout io.Writer) error {
	tmp, err := os.MkdirTemp("", "searcheval-")
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin, err := mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp)
	if err != nil {
		return err
	}
	var reps []report
	for i, p := range plans {
		if len(plans) > 1 {
			if i > 0 {
				if _, err := io.WriteString(stdout, "\n"); err != nil {
					return fmt.Errorf("write report: %w", err)
				}
			}
			if _, err := fmt.Fprintf(stdout, "## set %s (%s, %s)\n\n", p.Name, p.Host, p.Queries); err != nil {
				return fmt.Errorf("write report: %w", err)
			}
		}
		rep, err := evaluate(ctx, bin, filepath.Join(tmp, "data-"+strconv.Itoa(i)), cfg.perOrigin, p)
		if err != nil {
			return fmt.Errorf("set %s: %w", p.Name, err)
		}
		if err := rep.write(stdout); err != nil {
			return err
		}
		rep.Name = p.Name
		reps = append(reps, rep)
	}
	if len(reps) > 1 {
		return writeSummary(stdout, reps)
	}
	return nil
}

// evaluate crawls p's site (unless p.reuse) into p.data, or tmpData when p.data is empty, runs
// p's queries and returns the report.
func evaluate(ctx context.Context, bin, tmpData string, perOrigin int, p setPlan) (report, error) {
	pages, err := htmlPages(p.Site)
	if err != nil {
		return report{}, err
	}
	rep := report{Header: p.qs.Header, Site: p.Site, Pages: pages}
	data := p.reuse
	if data == "" {
		data = p.data
		if data == "" {
			data = tmpData
		} else if _, err := os.Stat(data); err == nil {
			return report{}, fmt.Errorf("-data %s exists; remove it or use -reuse", data)
		}
		st, err := newSite(p.Site)
		if err != nil {
			return report{}, err
		}
		defer st.Close()
		port, stop, err := listen(st)
		if err != nil {
			return report{}, err
		}
		start := time.Now()
		cr, err := crawl(ctx, bin, data, p.Host, port, perOrigin)
		rep.CrawlTime = time.Since(start)
		stop()
		rep.Crawl = cr
		rep.Requests, rep.ByStatus = st.Counts()
		if err != nil {
			return report{}, err
		}
		if cr.StopReason != mandelbotcli.FinishedReason {
			return report{}, fmt.Errorf("the crawl ended with %q, not %q", cr.StopReason, mandelbotcli.FinishedReason)
		}
	}
	for _, q := range p.qs.Queries {
		page, note, err := search(ctx, bin, data, q.Query)
		if err != nil {
			return report{}, err
		}
		o := Outcome{Judged: q, Total: page.Total, Err: note}
		for _, r := range page.Results {
			o.Results = append(o.Results, Hit{URL: r.URL, Path: sitePath(r.URL, p.Host), LinkOnly: r.LinkOnly})
		}
		o.score()
		rep.Outcomes = append(rep.Outcomes, o)
	}
	return rep, nil
}
