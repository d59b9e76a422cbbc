// Command robotsbench compares github.com/fractle/mandelbot/robotstxt with
// other Go robots.txt libraries on the work a crawler does: parse each
// site's robots.txt once, then decide every URL seen on that site. It also
// times a parse-only pass and a pathological wildcard case, and counts the
// URLs on which the libraries disagree. See ../README.md.
//
// Usage, from the bench directory:
//
//	go run ./robotsbench [-corpus DIR] [-runs N] [-only mandelbot,temoto,grobotstxt]
package main

import (
	"flag"
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"io"
	"os"
	"runtime"
	"time"
)

// Defaults of the command-line flags.
const (
	// defaultCorpus is the shared corpus as seen from the bench directory.
	defaultCorpus = "../../shared/corpus"
	// defaultRuns is how many timed repetitions each figure is the median of.
	defaultRuns = 5
	// defaultParseMin is the least time one parse-only measurement takes:
	// the pass over all robots files is repeated until it does.
	defaultParseMin = time.Second
	// defaultWorstCap is the wall time after which a library's worst-case
	// child process is stopped and reported as "> cap".
	defaultWorstCap = 10 * time.Second
)

// config is the parsed command line.
type config struct {
	corpus     string
	runs       int
	only       string
	parseMin   time.Duration
	worst      bool
	worstCap   time.Duration
	worstChild string
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "robotsbench:", err)
		os.Exit(2)
	}
	if cfg.worstChild != "" {
		err = runWorstChild(os.Stdout, cfg.worstChild)
	} else {
		err = run(os.Stdout, cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "robotsbench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("robotsbench", flag.ContinueOnError)
	fs.StringVar(&cfg.corpus, "corpus", defaultCorpus, "corpus `dir` with robots/SITE and links/SITE")
	fs.IntVar(&cfg.runs, "runs", defaultRuns, "timed repetitions per figure (the median is reported)")
	fs.StringVar(&cfg.only, "only", "", "comma-separated `libraries` to run (default all: "+peerNames(allPeers())+")")
	fs.DurationVar(&cfg.parseMin, "parse-min", defaultParseMin, "least time of one parse-only measurement")
	fs.BoolVar(&cfg.worst, "worst", true, "also run the pathological wildcard case")
	fs.DurationVar(&cfg.worstCap, "worst-cap", defaultWorstCap, "stop a library on the worst case after this long")
	fs.StringVar(&cfg.worstChild, "worst-child", "", "internal: time one `library` on the worst case and report to stdout")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.runs < 1 {
		return cfg, fmt.Errorf("-runs must be at least 1, got %d", cfg.runs)
	}
	return cfg, nil
}

// result holds one library's figures over the runs.
type result struct {
	p         peer
	nsPerURL  []float64
	cpuPerURL []float64 // empty when the system gives no CPU time
	allocsURL []float64
	bytesURL  []float64
	parseMBs  []float64
	parseCPU  []float64 // parse MB per CPU second; empty as cpuPerURL
	parseReps int
	verdicts  []bool // from the warm-up pass
}

func run(out io.Writer, cfg config) error {
	peers, err := selectPeers(cfg.only)
	if err != nil {
		return err
	}
	c, err := LoadCorpus(cfg.corpus)
	if err != nil {
		return err
	}
	w := newWorkload(c)
	if w.URLs == 0 {
		return fmt.Errorf("corpus %s: no URLs to check", cfg.corpus)
	}
	printHeader(out, cfg, c, w)
	crashes := preflight(peers, w)
	excluded := map[string]bool{}
	for _, cr := range crashes {
		excluded[cr.site] = true
	}
	if len(excluded) > 0 {
		printCrashes(out, crashes, excluded)
		w = w.without(excluded)
		if w.URLs == 0 {
			return fmt.Errorf("corpus %s: no URLs left to check", cfg.corpus)
		}
		fmt.Fprintf(out, "Measured without them: %d robots files (%s bytes) in the parse pass; URL pass: %d sites, %s URLs, %s robots bytes\n\n",
			len(w.Parse), group(int64(w.ParseBytes)), len(w.Sites), group(int64(w.URLs)), group(int64(w.robotsBytes())))
	}

	// Warm-up: one pass of each kind per library. The URL pass gives the
	// verdicts for the agreement count; the parse pass sizes the
	// parse-only measurement.
	results := make([]*result, len(peers))
	for i, p := range peers {
		r := &result{p: p, verdicts: make([]bool, w.URLs)}
		p.checkAll(w.Sites, r.verdicts)
		one := measure(func() { p.parseAll(w.Parse) })
		r.parseReps = repsFor(one.elapsed, cfg.parseMin)
		results[i] = r
	}

	// Timed runs, libraries interleaved so that a change of machine load
	// does not land on one library only.
	scratch := make([]bool, w.URLs)
	for range cfg.runs {
		for _, r := range results {
			s := measure(func() { r.p.checkAll(w.Sites, scratch) })
			n := float64(w.URLs)
			r.nsPerURL = append(r.nsPerURL, float64(s.elapsed.Nanoseconds())/n)
			if s.cpu > 0 {
				r.cpuPerURL = append(r.cpuPerURL, float64(s.cpu.Nanoseconds())/n)
			}
			r.allocsURL = append(r.allocsURL, float64(s.mallocs)/n)
			r.bytesURL = append(r.bytesURL, float64(s.bytes)/n)

			reps := r.parseReps
			s = measure(func() {
				for range reps {
					r.p.parseAll(w.Parse)
				}
			})
			mb := float64(reps) * float64(w.ParseBytes) / 1e6
			r.parseMBs = append(r.parseMBs, mb/s.elapsed.Seconds())
			if s.cpu > 0 {
				r.parseCPU = append(r.parseCPU, mb/s.cpu.Seconds())
			}
		}
	}

	if err := printCorpusTable(out, cfg, results); err != nil {
		return err
	}
	for _, r := range results {
		for _, n := range r.p.notes(w) {
			fmt.Fprintln(out, "Note:", n)
		}
	}
	printAgreement(out, w, results)

	if cfg.worst {
		return printWorst(out, cfg, peers)
	}
	return nil
}

func printHeader(out io.Writer, cfg config, c *Corpus, w *Workload) {
	fmt.Fprintf(out, "robotsbench: agent %q, %s %s/%s, GOMAXPROCS %d, NumCPU %d, runs %d (median reported)\n",
		agent, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.NumCPU(), cfg.runs)
	fmt.Fprintf(out, "load average at start: %s\n", host.LoadAverage())
	fmt.Fprintf(out, "corpus %s: %d sites with robots.txt (%s bytes)\n", cfg.corpus, len(c.Sites), group(int64(c.RobotsBytes())))
	fmt.Fprintf(out, "URL pass: %d sites with URLs, %s URLs, %s robots bytes",
		len(w.Sites), group(int64(w.URLs)), group(int64(w.robotsBytes())))
	if len(c.OrphanLinks) > 0 {
		fmt.Fprintf(out, "; %d links files without a robots file skipped", len(c.OrphanLinks))
	}
	fmt.Fprintln(out)
	if len(w.Rejected) > 0 {
		fmt.Fprintf(out, "%d URLs rejected by robotstxt.PathAndQuery and left out, e.g. %s: %v\n",
			len(w.Rejected), w.Rejected[0].URL, w.Rejected[0].Err)
	}
	fmt.Fprintln(out)
}

func printCorpusTable(out io.Writer, cfg config, results []*result) error {
	fmt.Fprintf(out, "Corpus: parse once per site, then decide every URL (median of %d runs; CPU = process user+sys time)\n\n", cfg.runs)
	t := &mdtable.Table{
		Header: []string{"library", "ns/URL", "CPU ns/URL", "allocs/URL", "B/URL", "parse MB/s", "CPU parse MB/s",
			"ns/URL vs mandelbot", "CPU vs mandelbot"},
		Right: []bool{false, true, true, true, true, true, true, true, true},
	}
	var ref *result
	for _, r := range results {
		if r.p.name() == "mandelbot" {
			ref = r
		}
	}
	ratio := func(xs func(*result) []float64, r *result) string {
		if ref == nil || len(xs(r)) == 0 || len(xs(ref)) == 0 {
			return "-"
		}
		return fmtRatio(median(xs(r)) / median(xs(ref)))
	}
	wall := func(r *result) []float64 { return r.nsPerURL }
	cpu := func(r *result) []float64 { return r.cpuPerURL }
	for _, r := range results {
		t.Add(r.p.name(),
			fmtMedian(r.nsPerURL, fmtNs),
			fmtMedian(r.cpuPerURL, fmtNs),
			fmtMedian(r.allocsURL, func(x float64) string { return fmt.Sprintf("%.2f", x) }),
			fmtMedian(r.bytesURL, func(x float64) string { return group(int64(x + 0.5)) }),
			fmtMedian(r.parseMBs, fmtMBs),
			fmtMedian(r.parseCPU, fmtMBs),
			ratio(wall, r),
			ratio(cpu, r))
	}
	if err := t.Write(out); err != nil {
		return err
	}
	fmt.Fprintln(out)
	return nil
}

// maxDiffsShown is how many disagreements are listed per library.
const maxDiffsShown = 5

// printAgreement counts, per library, the URLs it decides differently from
// mandelbot in the warm-up pass, and lists the first few.
func printAgreement(out io.Writer, w *Workload, results []*result) {
	var ref *result
	for _, r := range results {
		if r.p.name() == "mandelbot" {
			ref = r
		}
	}
	if ref == nil {
		fmt.Fprintln(out, "Agreement: not computed (mandelbot not selected)")
		fmt.Fprintln(out)
		return
	}
	for _, r := range results {
		if r == ref {
			continue
		}
		var diffs []string
		count := 0
		for _, s := range w.Sites {
			for i := range s.URLs {
				k := s.First + i
				if r.verdicts[k] == ref.verdicts[k] {
					continue
				}
				count++
				if len(diffs) < maxDiffsShown {
					diffs = append(diffs, fmt.Sprintf("  %s %s: mandelbot %s (%s), %s %s",
						s.Name, shorten(s.Paths[i], 80), verdictWord(ref.verdicts[k]), mandelbotExplain(s, s.Paths[i]),
						r.p.name(), verdictWord(r.verdicts[k])))
				}
			}
		}
		fmt.Fprintf(out, "Agreement: %s decides %s of %s URLs differently from mandelbot (%.2f%%)\n",
			r.p.name(), group(int64(count)), group(int64(w.URLs)), 100*float64(count)/float64(w.URLs))
		for _, d := range diffs {
			fmt.Fprintln(out, d)
		}
	}
	fmt.Fprintln(out)
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// shorten cuts s to at most n bytes, marking the cut with "...".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// worstUnder is the per-URL budget the worst case is judged against.
const worstUnder = time.Millisecond

func printWorst(out io.Writer, cfg config, peers []peer) error {
	fmt.Fprintf(out, "Worst case: %d rules /*a...*a*bN (%d \"*a\" each) against a %d-byte path of 'a's (cap %s per library)\n\n",
		worstRules, worstStars, worstPathLen, cfg.worstCap)
	t := &mdtable.Table{
		Header: []string{"library", "ns/URL", "per URL", "CPU per URL", "calls timed", "verdict", "ns/URL vs mandelbot"},
		Right:  []bool{false, true, true, true, true, false, true},
	}
	results := make([]worstResult, len(peers))
	var ref worstResult
	for i, p := range peers {
		results[i] = runWorst(p.name(), cfg.worstCap)
		if p.name() == "mandelbot" {
			ref = results[i]
		}
	}
	for i, p := range peers {
		r := results[i]
		switch {
		case r.err != nil:
			t.Add(p.name(), "error", "-", "-", "-", r.err.Error(), "-")
		case r.calls == 0:
			t.Add(p.name(), "> "+fmtNs(float64(cfg.worstCap.Nanoseconds())), "> "+fmtDur(cfg.worstCap), "-", "0", "-", "-")
		default:
			ratio := "-"
			if ref.calls > 0 && !ref.capped && ref.err == nil {
				ratio = fmtRatio(float64(r.perCall) / float64(ref.perCall))
			}
			calls := fmt.Sprint(r.calls)
			if r.capped {
				calls += " (capped)"
			}
			cpu := "-"
			if r.cpuCall > 0 {
				cpu = fmtDur(r.cpuCall)
			}
			t.Add(p.name(), fmtNs(float64(r.perCall.Nanoseconds())), fmtDur(r.perCall), cpu, calls, verdictWord(r.allowed), ratio)
		}
	}
	if err := t.Write(out); err != nil {
		return err
	}
	fmt.Fprintln(out)
	for _, p := range peers {
		if p.name() != "mandelbot" {
			continue
		}
		switch {
		case ref.err != nil:
			fmt.Fprintf(out, "mandelbot under %s per URL on the worst case: unknown (%v)\n", worstUnder, ref.err)
		case ref.calls == 0:
			fmt.Fprintf(out, "mandelbot under %s per URL on the worst case: NO (no call finished within %s)\n", worstUnder, cfg.worstCap)
		case ref.perCall < worstUnder:
			fmt.Fprintf(out, "mandelbot under %s per URL on the worst case: yes (%s wall, %s CPU)\n", worstUnder, fmtDur(ref.perCall), fmtDur(ref.cpuCall))
		default:
			fmt.Fprintf(out, "mandelbot under %s per URL on the worst case: NO (%s wall, %s CPU)\n", worstUnder, fmtDur(ref.perCall), fmtDur(ref.cpuCall))
		}
	}
	return nil
}
