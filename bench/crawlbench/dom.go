package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/fractle/mandelbot/bench/internal/gobuild"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// defaultSelector is the element the DOM programs select on every page: each generated page
// has exactly one h1 (its title).
const defaultSelector = "h1"

// Program names of the DOM comparison (issue 28) as the tables print them.
const (
	nameLib      = "crawl.Run, no callback"
	nameLibDOM   = "crawl.Run, OnPage DOM + select"
	nameCollyDOM = "Colly v2.3.0 + OnHTML(select)"
)

// libReport is what the library peer prints (libpeer.Report).
type libReport struct {
	Pages    int     `json:"pages"`
	Selected int     `json:"selected"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	Stop     string  `json:"stop"`
}

// libRun is one measured run of the library peer.
type libRun struct {
	spawn.Run
	Report libReport
	Tally  tally
	Err    error // the run broke: reported, not timed
}

// buildLib compiles the library peer (bench/crawlbench/libpeer) into dir.
func buildLib(ctx context.Context, benchSrc, dir string) (string, error) {
	return gobuild.Binary(ctx, benchSrc, "./crawlbench/libpeer", dir)
}

// runLib runs the library peer against web (with -select when selector is set), tallied by rec.
func runLib(ctx context.Context, opts spawn.Options, bin string, web *testweb.Web, rec *recorder, s crawlSettings, pagesPerOrigin int, selector string) libRun {
	args := []string{"-concurrency", strconv.Itoa(s.Concurrency), "-per-origin", strconv.Itoa(s.PerOrigin)}
	if selector != "" {
		args = append(args, "-select", selector)
	}
	for _, r := range web.Resolve() {
		args = append(args, "-resolve", r)
	}
	child, err := spawn.Measure(ctx, opts, bin, append(args, web.Seeds()...)...)
	r := libRun{Run: child}
	r.Tally, _ = rec.finish(web.Keys(), pagesPerOrigin)
	if err != nil {
		r.Err = fmt.Errorf("libpeer: %w", err)
		return r
	}
	if err := json.Unmarshal([]byte(child.Stdout), &r.Report); err != nil {
		r.Err = fmt.Errorf("libpeer: read the report %q: %w", child.Stdout, err)
	}
	return r
}

// libChecks returns what went wrong in a library run, as checks does for the command: it ends
// with nothing left, asks for every page once and nothing disallowed, and, with a selector,
// finds it on every page.
func libChecks(r libRun, selector string) []string {
	if r.Err != nil {
		return []string{r.Err.Error()}
	}
	p := checks(crawlRun{Tally: r.Tally, StopReason: finishedIfDone(r.Report.Stop)})
	if selector != "" && r.Report.Selected != r.Tally.DistinctPages() {
		p = append(p, fmt.Sprintf("%q selected on %d pages of %d", selector, r.Report.Selected, r.Tally.DistinctPages()))
	}
	return p
}

// finishedIfDone maps the library's stop reason to the command's words, which checks expects.
func finishedIfDone(stop string) string {
	if stop == "finished" {
		return "nothing left to crawl"
	}
	return stop
}

// writeDOM prints the DOM comparison (issue 28): the Go API without and with a page callback
// that parses the DOM and selects one element, and Colly without and with an OnHTML callback for
// the same selector, each program's pages/s and CPU per page, and what the DOM costs each.
func writeDOM(out io.Writer, rs []result, name func(string, int) string, multi bool, selector string) error {
	if !rs[0].ran.lib && !rs[0].ran.libDOM && !rs[0].ran.collyDOM {
		return nil
	}
	type four struct{ lib, dom, colly, collyDOM figures }
	var runs []four
	for _, r := range rs {
		f := four{
			lib:      measured(r.lib.Run, r.lib.Tally.DistinctPages(), r.lib.Tally.Total()),
			dom:      measured(r.libDOM.Run, r.libDOM.Tally.DistinctPages(), r.libDOM.Tally.Total()),
			colly:    measured(r.colly.Run, r.colly.Tally.DistinctPages(), r.colly.Tally.Total()),
			collyDOM: measured(r.collyDOM.Run, r.collyDOM.Tally.DistinctPages(), r.collyDOM.Tally.Total()),
		}
		f.lib.absent, f.dom.absent, f.colly.absent, f.collyDOM.absent = !r.ran.lib, !r.ran.libDOM, !r.ran.colly, !r.ran.collyDOM
		f.lib.broken, f.dom.broken, f.colly.broken, f.collyDOM.broken = r.lib.Err != nil, r.libDOM.Err != nil, r.colly.Err != nil, r.collyDOM.Err != nil
		runs = append(runs, f)
	}
	t := mdtable.Table{
		Header: []string{"program", "pages", "seconds", "pages/s", "CPU s", "CPU us/page", "peak RSS MiB"},
		Right:  []bool{false, true, true, true, true, true, true},
	}
	add := func(what string, f figures) {
		switch {
		case f.absent:
		case f.broken:
			t.Add(what+" (broke, see above)", strconv.Itoa(f.pages), "-", "-", "-", "-", mdtable.MiB(f.rss))
		default:
			t.Add(what, strconv.Itoa(f.pages), mdtable.Secs(f.wall), fmt.Sprintf("%.0f", f.pagesPerSec()),
				mdtable.Secs(f.cpu), fmt.Sprintf("%.0f", f.cpuPerPage()), mdtable.MiB(f.rss))
		}
	}
	for i, f := range runs {
		add(name(nameLib, i), f.lib)
		add(name(nameLibDOM, i), f.dom)
		add(name(nameColly, i), f.colly)
		add(name(nameCollyDOM, i), f.collyDOM)
	}
	pick := func(g func(four) figures) figures { return medianFigures(runs, g) }
	med := four{lib: pick(func(f four) figures { return f.lib }), dom: pick(func(f four) figures { return f.dom }),
		colly: pick(func(f four) figures { return f.colly }), collyDOM: pick(func(f four) figures { return f.collyDOM })}
	if multi {
		add(nameLib+", median", med.lib)
		add(nameLibDOM+", median", med.dom)
		add(nameColly+", median", med.colly)
		add(nameCollyDOM+", median", med.collyDOM)
	}
	fmt.Fprintf(out, "\nThe Go API with a scraper's callback (issue 28): OnPage parses each page's DOM (Page.DOM, goquery) and selects %q, against Colly with OnHTML(%q) (Colly parses every page's DOM for its link callback in both of its rows):\n\n", selector, selector)
	if err := t.Write(out); err != nil {
		return err
	}
	ok := func(a, b figures) bool { return !a.absent && !b.absent && !a.broken && !b.broken }
	if ok(med.lib, med.dom) {
		fmt.Fprintf(out, "\nDOM + select per page in the Go API (medians, OnPage row minus no-callback row): %.0f us CPU.\n", med.dom.cpuPerPage()-med.lib.cpuPerPage())
	}
	if ok(med.colly, med.collyDOM) {
		fmt.Fprintf(out, "Colly's extra OnHTML callback per page (medians): %.0f us CPU; its parse is in both Colly rows (see BenchmarkDOM for the parse itself).\n", med.collyDOM.cpuPerPage()-med.colly.cpuPerPage())
	}
	return nil
}
