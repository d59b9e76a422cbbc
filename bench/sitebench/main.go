// Command sitebench measures a crawl of one real site (issue 8): the HTML of a Debian
// documentation package served by nginx on loopback, with a robots.txt that disallows one
// directory, crawled in the same run by `wget -r` and by `mandelbot crawl --delay 0
// --per-origin 1`. It prints pages per second, CPU time per page and peak RSS of both as
// Markdown tables, counts each program's requests in nginx's access log, and checks that
// mandelbot never asked for the disallowed directory.
//
// It installs nothing: run sitebench/setup.sh once first (nginx, wget, the package's HTML
// under bench/bin/).
//
// Usage (from bench/):
//
//	sh sitebench/setup.sh && go run ./sitebench [-runs 1]
package main

import (
	"context"
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
	"github.com/fractle/mandelbot/bench/internal/spawn"
)

// Defaults of the flags.
const (
	// defaultRoot is the site served at "/": the package's documentation directory as
	// setup.sh unpacks it. It holds html/ (the manual, whose index.html nginx serves for
	// /html/) and tutorial/ (SQL and C sources), which robots.txt disallows; "/" itself is
	// an nginx directory listing that links to both.
	defaultRoot     = "bin/postgresql-doc-15/usr/share/doc/postgresql-doc-15"
	defaultDir      = "bin/sitebench"
	defaultDisallow = "/tutorial/"
	defaultRuns     = 1
	defaultTimeout  = 30 * time.Minute
	defaultMaxRSS   = 4096 // MiB
	// wgetServerError is wget's exit status when some answer was an error (a broken link's
	// 404): the crawl still ran to its end.
	wgetServerError = 8
)

type config struct {
	root, dir, disallow   string
	runs                  int
	src, bin, nginx, wget string
	timeout               time.Duration
	maxRSSMiB             int64
}

func main() {
	if code, ok := spawn.Main(os.Args[1:], os.Stderr); ok {
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and runs the benchmark; it returns the exit status: 0 done and every check
// passed, 1 a check failed or a run broke, 2 usage.
func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("sitebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.root, "root", defaultRoot, "directory served at / (setup.sh unpacks it)")
	fs.StringVar(&cfg.dir, "dir", defaultDir, "directory for nginx's configuration, pid file, logs and robots.txt (emptied logs each invocation)")
	fs.StringVar(&cfg.disallow, "disallow", defaultDisallow, "directory robots.txt disallows (a path starting and ending with /)")
	fs.IntVar(&cfg.runs, "runs", defaultRuns, "runs of wget then mandelbot; several give medians")
	fs.StringVar(&cfg.src, "src", "..", "source directory of the main module (mandelbot is built from SRC/cmd/mandelbot)")
	fs.StringVar(&cfg.bin, "mandelbot", "", "use this mandelbot binary instead of building one")
	fs.StringVar(&cfg.nginx, "nginx", "nginx", "the nginx binary")
	fs.StringVar(&cfg.wget, "wget", "wget", "the wget binary")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "kill a crawl that runs longer than this")
	fs.Int64Var(&cfg.maxRSSMiB, "max-rss", defaultMaxRSS, "stop a crawler whose RSS passes this many MiB (0: no cap)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || cfg.runs < 1 || cfg.maxRSSMiB < 0 ||
		!strings.HasPrefix(cfg.disallow, "/") || !strings.HasSuffix(cfg.disallow, "/") || len(cfg.disallow) < 2 {
		fmt.Fprintln(stderr, "sitebench: -runs must be positive, -max-rss not negative, -disallow a directory like /tutorial/; no arguments")
		return 2
	}
	ok, err := bench(context.Background(), cfg, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "sitebench:", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// crawlerRun is one measured crawl of the site by one program.
type crawlerRun struct {
	spawn.Run
	Tally     siteTally
	ServerCPU time.Duration // nginx's CPU time meanwhile; -1 unknown
	Stop      string        // mandelbot's stop reason
	Says      string        // mandelbot's own "pages answered" figures
}

type result struct{ wget, mandelbot crawlerRun }

// bench starts nginx, runs the programs cfg.runs times and prints the report.
func bench(ctx context.Context, cfg config, out io.Writer) (bool, error) {
	root, err := filepath.Abs(cfg.root)
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(filepath.Join(root, strings.Trim(cfg.disallow, "/"))); err != nil {
		return false, fmt.Errorf("the site %s (or its %s) is missing: run `sh sitebench/setup.sh` first: %w", root, cfg.disallow, err)
	}
	for _, b := range []string{cfg.nginx, cfg.wget} {
		if _, err := exec.LookPath(b); err != nil {
			return false, fmt.Errorf("%s is not installed: run `sh sitebench/setup.sh` first: %w", b, err)
		}
	}
	dir, err := filepath.Abs(cfg.dir)
	if err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp("", "sitebench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	bin, err := mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp)
	if err != nil {
		return false, err
	}
	opts := spawn.Options{MaxRSS: cfg.maxRSSMiB << 20}
	if opts.Self, err = os.Executable(); err != nil {
		return false, fmt.Errorf("find this program for the launcher: %w", err)
	}

	port, err := freePort()
	if err != nil {
		return false, err
	}
	s := site{Root: root, Dir: dir, Port: port, Disallow: cfg.disallow}
	srv, err := startNginx(ctx, cfg.nginx, s)
	if err != nil {
		return false, err
	}
	defer srv.stop()
	origin := "http://127.0.0.1:" + strconv.Itoa(port)

	fmt.Fprintf(out, "sitebench: %s served by nginx (one process) at %s, robots.txt disallows %s; %d runs\n", root, origin, cfg.disallow, cfg.runs)
	fmt.Fprintf(out, "wget -r -np -l inf --delete-after; mandelbot crawl --delay 0 --per-origin 1 --allow-private\n")
	startLoad := host.LoadAverage()

	var results []result
	var offset int64
	ok := true
	for i := range cfg.runs {
		var r result
		wgetDir, err := os.MkdirTemp(tmp, "wget-")
		if err != nil {
			return false, err
		}
		wopts := opts
		wopts.ExitOK = []int{wgetServerError}
		r.wget, offset, err = crawlOnce(ctx, cfg, wopts, srv, s, offset, cfg.wget,
			"-r", "-np", "-l", "inf", "--delete-after", "-nv", "-e", "robots=on", "-P", wgetDir, origin+"/")
		if err != nil {
			return false, fmt.Errorf("run %d: wget: %w", i+1, err)
		}
		data, err := os.MkdirTemp(tmp, "data-")
		if err != nil {
			return false, err
		}
		r.mandelbot, offset, err = crawlOnce(ctx, cfg, opts, srv, s, offset, bin,
			"crawl", "--data", data, "--delay", "0", "--per-origin", "1", "--allow-private", origin+"/")
		if err != nil {
			return false, fmt.Errorf("run %d: mandelbot: %w", i+1, err)
		}
		r.mandelbot.Stop, r.mandelbot.Says = mandelbotcli.SummaryLines(r.mandelbot.Stdout)
		os.RemoveAll(data)
		if p := checks(r.mandelbot); len(p) > 0 {
			ok = false
			fmt.Fprintf(out, "\nCHECK FAILED, mandelbot, run %d:\n  %s\n", i+1, strings.Join(p, "\n  "))
		}
		results = append(results, r)
	}
	fmt.Fprintf(out, "load average at start: %s; at end: %s\n\n", startLoad, host.LoadAverage())
	return ok, report(out, results, cfg.disallow)
}

// crawlOnce runs one program under the launcher and tallies the access log lines it caused,
// from offset on; it returns the log's new end.
func crawlOnce(ctx context.Context, cfg config, opts spawn.Options, srv *server, s site, offset int64, name string, args ...string) (crawlerRun, int64, error) {
	cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	cpu0, ok0 := processCPU(srv.pid())
	child, err := spawn.Measure(cctx, opts, name, args...)
	cpu1, ok1 := processCPU(srv.pid())
	r := crawlerRun{Run: child, ServerCPU: -1}
	if ok0 && ok1 {
		r.ServerCPU = cpu1 - cpu0
	}
	if err != nil {
		return r, offset, err
	}
	entries, end, err := readLog(s.accessLogPath(), offset)
	if err != nil {
		return r, offset, err
	}
	r.Tally = tallyLog(entries, s.Disallow)
	return r, end, nil
}

// checks returns what went wrong in mandelbot's crawl: it must end because no work was left,
// never ask for the disallowed directory, fetch robots.txt, and ask for nothing twice.
func checks(m crawlerRun) []string {
	var p []string
	t := m.Tally
	if m.Stop != mandelbotcli.FinishedReason {
		p = append(p, fmt.Sprintf("the crawl ended with %q, not %q", m.Stop, mandelbotcli.FinishedReason))
	}
	if t.Disallowed > 0 {
		p = append(p, fmt.Sprintf("%d requests under the directory robots.txt disallows: %v", t.Disallowed, t.DisallowedSeen))
	}
	if t.Robots == 0 {
		p = append(p, "robots.txt was never requested")
	}
	if t.Repeated > 0 {
		p = append(p, fmt.Sprintf("%d requests repeated: %v", t.Repeated, t.RepeatedSeen))
	}
	if t.Pages == 0 {
		p = append(p, "no page was fetched")
	}
	return p
}
