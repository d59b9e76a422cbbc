// Command memorybench measures the peak RSS of `mandelbot crawl` against its --memory budget on
// the webs issue 29 names ("what it must show"), each run a real crawl process on loopback:
//
//   - -web bombs: the whole hostile web (internal/testweb/hostile) with -bombs sitemap bombs named
//     by robots.txt files (four per copy of the "hostile" site, all of them fetched at once:
//     --per-origin 4), beside a normal site, --delay 0 --max-depth 1 --max-pages-per-origin 100,
//     for at most -duration (the hostile pages' stalls take their real timeouts);
//   - -web calendar: a calendar trap (each month links to the next and the previous month,
//     without end) beside a generated web of -origins x -pages normal pages, --delay 0, for
//     -duration (--max-time).
//
// Each budget of -memory is run -runs times, alternated; the verdict is whether every peak RSS
// stays within the budget plus 10% (issue 29).
//
// Usage (from bench/):
//
//	go run ./memorybench -web bombs [-bombs 32] [-memory 256MiB,128MiB] [-runs 1]
//	go run ./memorybench -web calendar [-duration 10m] [-origins 1000] [-pages 1000]
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
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// Defaults of the flags, and the bound issue 29 sets.
const (
	defaultBombs    = 32
	defaultDuration = 10 * time.Minute // -web bombs: 4m is plenty (the bombs come first)
	defaultOrigins  = 1000
	defaultPages    = 1000
	defaultMemory   = "256MiB,128MiB"
	// normalPages is the normal site beside the hostile web: every one of its pages must be
	// fetched.
	normalPages = 50
	// bombsPerSite is how many sitemap bombs the robots.txt of one "hostile" site names.
	bombsPerSite = 4
	// slackPercent is what issue 29 allows over the budget: "each must stay within the budget
	// plus 10%".
	slackPercent = 10
	// maxRSSMiB stops a child far past any budget measured here.
	maxRSSMiB = 4096
)

type config struct {
	web      string
	bombs    int
	duration time.Duration
	origins  int
	pages    int
	memory   []int64
	runs     int
	bin      string
	src      string
	timeout  time.Duration
}

func main() {
	if code, ok := spawn.Main(os.Args[1:], os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark: 0 when every run stayed within its budget plus 10%, 1
// when one did not or broke, 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("memorybench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.web, "web", "bombs", "the web: bombs (the hostile web with -bombs sitemap bombs) or calendar (a calendar trap beside a generated web)")
	fs.IntVar(&cfg.bombs, "bombs", defaultBombs, "sitemap bombs fetched at once (-web bombs; a multiple of 4)")
	fs.DurationVar(&cfg.duration, "duration", defaultDuration, "how long the crawl runs at most (--max-time)")
	fs.IntVar(&cfg.origins, "origins", defaultOrigins, "origins of the generated web beside the calendar")
	fs.IntVar(&cfg.pages, "pages", defaultPages, "pages per origin of the generated web")
	mem := fs.String("memory", defaultMemory, "comma-separated --memory budgets to run")
	fs.IntVar(&cfg.runs, "runs", 1, "runs of each budget, alternated")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.StringVar(&cfg.src, "src", "..", "the main module's source directory (mandelbot is built from it)")
	fs.DurationVar(&cfg.timeout, "timeout", 0, "stop a crawl that runs longer than this (0: the duration plus 5 minutes)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, s := range strings.Split(*mem, ",") {
		n, err := budget.ParseSize(s)
		if err != nil {
			fmt.Fprintln(stderr, "memorybench: -memory:", err)
			return 2
		}
		cfg.memory = append(cfg.memory, n)
	}
	if (cfg.web != "bombs" && cfg.web != "calendar") || cfg.bombs < bombsPerSite || cfg.bombs%bombsPerSite != 0 ||
		cfg.runs < 1 || cfg.origins < 1 || cfg.pages < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "memorybench: -web bombs or calendar; -bombs a positive multiple of 4; -runs, -origins, -pages positive; no arguments")
		return 2
	}
	if cfg.timeout == 0 {
		cfg.timeout = cfg.duration + 5*time.Minute
	}
	ok, err := bench(context.Background(), cfg, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "memorybench:", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// web is what a run crawls: the sites, the seeds, and the crawl's flags besides --memory.
type web struct {
	sites []testweb.Site
	seeds []string // references like "{key}/path"
	flags []string
	// bombs lists the sitemap bombs as references ("{key}/path"): each run must request every
	// one of them, or it measured less than it says.
	bombs []string
}

// bombsWeb is the hostile web of TestHostileWebBesideANormalSite (internal/crawler) with
// cfg.bombs/4 copies of the site whose robots.txt names the four sitemap bombs.
func bombsWeb(cfg config) web {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	normal := testweb.Site{Key: "normal", Robots: &robots}
	home := testweb.Page{Path: "/", Title: "Home"}
	for i := 1; i < normalPages; i++ {
		p := fmt.Sprintf("/p%d", i)
		home.Links = append(home.Links, p)
		normal.Pages = append(normal.Pages, testweb.Page{Path: p, Title: p, Text: "plain page " + p})
	}
	normal.Pages = append(normal.Pages, home)
	bombs := &hostile.Bombs{}
	bombs.Warm() // the server's cost, not the crawl's
	// As the test: depth 1 and 100 pages per origin bound the traps' links and the bombs'
	// sitemap entries; the stalls and hangs take their real timeouts, hence --max-time.
	w := web{sites: []testweb.Site{normal}, seeds: []string{"{normal}/"},
		flags: []string{"--max-depth", "1", "--per-origin", strconv.Itoa(bombsPerSite), "--max-pages-per-origin", "100",
			"--max-time", cfg.duration.String()}}
	for i := range cfg.bombs / bombsPerSite {
		key := "hostile" + strconv.Itoa(i+1)
		w.sites = append(w.sites, hostile.Site(key, hostile.Options{Sitemaps: true, Bombs: bombs}))
		w.seeds = append(w.seeds, "{"+key+"}"+hostile.PathIndex)
		for _, p := range []string{hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb, hostile.PathSitemapGzipFile} {
			w.bombs = append(w.bombs, "{"+key+"}"+p)
		}
	}
	for i, v := range hostile.RobotsVariants {
		key := "robots-" + strconv.Itoa(i+1)
		w.sites = append(w.sites, hostile.Site(key, hostile.Options{Robots: v, Bombs: bombs}))
		w.seeds = append(w.seeds, "{"+key+"}"+hostile.PathIndex)
	}
	return w
}

// calendarWeb is the calendar (internal/testweb/hostile: PathCalendarPrefix) beside a
// generated web, crawled for cfg.duration.
func calendarWeb(cfg config) web {
	sites := testweb.Generate(testweb.GenOptions{Origins: cfg.origins, PagesPerOrigin: cfg.pages})
	w := web{sites: sites, flags: []string{"--max-time", cfg.duration.String()}}
	for _, s := range sites {
		w.seeds = append(w.seeds, "{"+s.Key+"}/")
	}
	w.sites = append(w.sites, hostile.Site("calendar", hostile.Options{}))
	w.seeds = append(w.seeds, "{calendar}"+hostile.PathCalendarPrefix+"2026/11")
	return w
}

// result is one crawl.
type result struct {
	memory int64
	run    spawn.Run
	exit   string
	err    error
	bombs  int // sitemap bombs requested
}

func bench(ctx context.Context, cfg config, out io.Writer) (bool, error) {
	var w web
	switch cfg.web {
	case "bombs":
		w = bombsWeb(cfg)
	case "calendar":
		w = calendarWeb(cfg)
	}
	maxLog := 1 // the generated web's requests need no log
	if len(w.bombs) > 0 {
		maxLog = 0 // the default: the bombs' requests are counted
	}
	tw, err := testweb.Start(w.sites, testweb.Options{MaxLog: maxLog})
	if err != nil {
		return false, err
	}
	defer tw.Close()
	tmp, err := os.MkdirTemp("", "memorybench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	bin, err := mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp)
	if err != nil {
		return false, err
	}
	opts := spawn.Options{MaxRSS: maxRSSMiB << 20, ExitOK: []int{1, 3}} // 1: some URLs in error (the hostile web); 3: stopped at --max-time
	if opts.Self, err = os.Executable(); err != nil {
		return false, fmt.Errorf("find this program for the launcher: %w", err)
	}
	fmt.Fprintf(out, "memorybench: -web %s, %d sites, flags %s\n", cfg.web, len(w.sites), strings.Join(w.flags, " "))
	startLoad := host.LoadAverage()
	fmt.Fprintf(out, "load average at start: %s\n", startLoad)
	var results []result
	for i := range cfg.runs {
		for _, m := range cfg.memory {
			data := filepath.Join(tmp, fmt.Sprintf("data-%d-%d", i, m))
			argv := []string{"crawl", "--data", data, "--allow-private", "--delay", "0", "--memory", budget.FormatSize(m)}
			argv = append(argv, w.flags...)
			for _, r := range tw.Resolve() {
				argv = append(argv, "--resolve", r)
			}
			for _, s := range w.seeds {
				argv = append(argv, tw.Expand(s))
			}
			before := requested(tw, w.bombs)
			cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
			r := result{memory: m}
			r.run, r.err = spawn.Measure(cctx, opts, bin, argv...)
			cancel()
			r.bombs = requested(tw, w.bombs) - before
			if r.bombs < len(w.bombs) && r.err == nil {
				r.err = fmt.Errorf("%d of the %d sitemap bombs requested", r.bombs, len(w.bombs))
			}
			r.exit = fmt.Sprint(r.run.ExitCode)
			fmt.Fprintf(out, "  --memory %s: peak RSS %.1f MiB, %.1f s, exit %s, load %s\n", budget.FormatSize(m),
				float64(r.run.PeakRSS())/(1<<20), r.run.Wall.Seconds(), r.exit, host.LoadAverage())
			results = append(results, r)
		}
	}
	fmt.Fprintf(out, "load average at start: %s; at end: %s\n\n", startLoad, host.LoadAverage())
	return report(out, results)
}

// requested counts the requests the web logged for refs.
func requested(tw *testweb.Web, refs []string) int {
	n := 0
	for _, ref := range refs {
		key, path, _ := strings.Cut(strings.TrimPrefix(ref, "{"), "}")
		n += tw.Count(key, path)
	}
	return n
}

// report prints one row per run and says whether every run stayed within its bound.
func report(out io.Writer, results []result) (bool, error) {
	t := mdtable.Table{Header: []string{"--memory", "peak RSS MiB", "bound MiB (+10%)", "within", "wall s", "CPU s", "exit", "sitemap bombs requested"},
		Right: []bool{false, true, true, false, true, true, true, true}}
	ok := true
	for _, r := range results {
		rss := r.run.PeakRSS()
		bound := r.memory + r.memory*slackPercent/100
		within := rss > 0 && rss <= bound && r.err == nil
		ok = ok && within
		verdict := "yes"
		if !within {
			verdict = "NO"
			if r.err != nil {
				verdict += ": " + r.err.Error()
			}
		}
		t.Add(budget.FormatSize(r.memory), fmt.Sprintf("%.1f", float64(rss)/(1<<20)), fmt.Sprintf("%.1f", float64(bound)/(1<<20)),
			verdict, fmt.Sprintf("%.1f", r.run.Wall.Seconds()), fmt.Sprintf("%.1f", r.run.CPU.Seconds()), r.exit, strconv.Itoa(r.bombs))
	}
	return ok, t.Write(out)
}
