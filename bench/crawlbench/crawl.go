package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// finishedReason is the stop reason of a crawl that ran out of work, as `mandelbot crawl`
// prints it ("Crawl ended: nothing left to crawl").
const finishedReason = "nothing left to crawl"

// buildMandelbot compiles the CLI from the main module's source directory src into dir and
// returns the binary's path.
func buildMandelbot(ctx context.Context, src, dir string) (string, error) {
	bin := filepath.Join(dir, "mandelbot")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/mandelbot")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build mandelbot in %s: %w\n%s", src, err, out)
	}
	return bin, nil
}

// crawlSettings are the knobs a crawl run and its ceiling share.
type crawlSettings struct {
	Concurrency, PerOrigin int
}

// crawlArgs returns the arguments of `mandelbot crawl` for web: no delay, the given
// concurrency, one --resolve per site, every site's home page as a seed.
func crawlArgs(web *testweb.Web, data string, s crawlSettings) []string {
	args := []string{"crawl", "--data", data, "--delay", "0",
		"--concurrency", strconv.Itoa(s.Concurrency), "--per-origin", strconv.Itoa(s.PerOrigin)}
	for _, r := range web.Resolve() {
		args = append(args, "--resolve", r)
	}
	return append(args, web.Seeds()...)
}

// crawlRun is one measured crawl.
type crawlRun struct {
	spawn.Run
	Tally       tally  // the web's requests during the crawl
	StopReason  string // from the crawler's summary
	CrawlerSays string // the crawler's own "pages answered" line
}

// runCrawl runs the crawler binary against web, with a fresh data directory inside tmp,
// under the launcher (see spawn), and tallies what the web received meanwhile with rec.
// The URLs the crawl requested, in order, are returned for the ceiling.
func runCrawl(ctx context.Context, opts spawn.Options, bin string, web *testweb.Web, rec *recorder, tmp string, s crawlSettings, pagesPerOrigin int) (crawlRun, []string, error) {
	data, err := os.MkdirTemp(tmp, "data-")
	if err != nil {
		return crawlRun{}, nil, fmt.Errorf("crawl: %w", err)
	}
	defer os.RemoveAll(data)
	child, err := spawn.Measure(ctx, opts, bin, crawlArgs(web, data, s)...)
	r := crawlRun{Run: child}
	var urls []string
	r.Tally, urls = rec.finish(web.Keys(), pagesPerOrigin)
	if err != nil {
		return r, nil, fmt.Errorf("crawl: %w", err)
	}
	r.StopReason, r.CrawlerSays = summaryLines(child.Stdout)
	return r, urls, nil
}

var (
	stopLine  = regexp.MustCompile(`(?m)^Crawl ended: (.*)$`)
	pagesLine = regexp.MustCompile(`(?m)pages answered\s+(.*)$`)
)

// summaryLines picks the stop reason and the "pages answered" figures out of the summary
// `mandelbot crawl` prints; empty strings when a line is missing.
func summaryLines(stdout string) (stop, pages string) {
	if m := stopLine.FindStringSubmatch(stdout); m != nil {
		stop = strings.TrimSpace(m[1])
	}
	if m := pagesLine.FindStringSubmatch(stdout); m != nil {
		pages = strings.Join(strings.Fields(m[1]), " ")
	}
	return stop, pages
}
