package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/bench/internal/spawn"
)

// figures are one program's measured figures in one run (or their medians).
type figures struct {
	pages, requests int
	wall, cpu       time.Duration
	rss             int64 // bytes; -1 unknown
	broken          bool  // the run broke: no figures
	absent          bool  // the program did not run (-programs)
}

func (f figures) pagesPerSec() float64 { return float64(f.pages) / f.wall.Seconds() }
func (f figures) cpuPerPage() float64  { return float64(f.cpu.Microseconds()) / float64(f.pages) }

func measured(r spawn.Run, pages, requests int) figures {
	return figures{pages: pages, requests: requests, wall: r.Wall, cpu: r.CPU, rss: r.PeakRSS()}
}

// program names as the tables print them.
const (
	nameMandelbot = "mandelbot crawl"
	nameWARC      = "mandelbot crawl --warc"
	nameColly     = "Colly v2.3.0"
	nameCeiling   = "net/http loop (ceiling)"
)

// triple is one run's figures of mandelbot (m), Colly (c) and the ceiling (l), and of
// mandelbot with --warc (w).
type triple struct{ m, c, l, w figures }

// row is one program's figures under a name.
type row struct {
	name string
	f    figures
}

// report prints the tables: the three programs' speed, CPU and memory; the ratios of
// mandelbot's to the peers'; what each asked the web for; and the fake web's own CPU.
func report(out io.Writer, rs []result, selector string) error {
	multi := len(rs) > 1
	name := func(what string, i int) string {
		if multi {
			return what + ", run " + strconv.Itoa(i+1)
		}
		return what
	}
	var runs []triple
	for _, r := range rs {
		t := triple{
			m: measured(r.crawl.Run, r.crawl.Tally.DistinctPages(), r.crawl.Tally.Total()),
			c: measured(r.colly.Run, r.colly.Tally.DistinctPages(), r.colly.Tally.Total()),
			l: measured(r.loop.Run, r.loop.Pages, r.loop.Report.Requests),
			w: measured(r.warc.Run, r.warc.Tally.DistinctPages(), r.warc.Tally.Total()),
		}
		t.c.broken = r.colly.Err != nil
		t.m.absent, t.c.absent, t.l.absent, t.w.absent = !r.ran.mandelbot, !r.ran.colly, !r.ran.ceiling, !r.ran.warc
		runs = append(runs, t)
	}

	speed := mdtable.Table{
		Header: []string{"program", "pages", "requests", "seconds", "pages/s", "CPU s", "CPU us/page", "peak RSS MiB"},
		Right:  []bool{false, true, true, true, true, true, true, true},
	}
	add := func(r row) {
		if r.f.absent {
			return
		}
		if r.f.broken {
			speed.Add(r.name+" (broke, see above)", strconv.Itoa(r.f.pages), strconv.Itoa(r.f.requests), "-", "-", "-", "-", mdtable.MiB(r.f.rss))
			return
		}
		speed.Add(r.name, strconv.Itoa(r.f.pages), strconv.Itoa(r.f.requests), mdtable.Secs(r.f.wall),
			fmt.Sprintf("%.0f", r.f.pagesPerSec()), mdtable.Secs(r.f.cpu), fmt.Sprintf("%.0f", r.f.cpuPerPage()), mdtable.MiB(r.f.rss))
	}
	for i, t := range runs {
		add(row{name(nameMandelbot, i), t.m})
		add(row{name(nameWARC, i), t.w})
		add(row{name(nameColly, i), t.c})
		add(row{name(nameCeiling, i), t.l})
	}
	med := triple{m: medianFigures(runs, func(t triple) figures { return t.m }),
		c: medianFigures(runs, func(t triple) figures { return t.c }),
		l: medianFigures(runs, func(t triple) figures { return t.l }),
		w: medianFigures(runs, func(t triple) figures { return t.w })}
	if multi {
		add(row{nameMandelbot + ", median", med.m})
		add(row{nameWARC + ", median", med.w})
		add(row{nameColly + ", median", med.c})
		add(row{nameCeiling + ", median", med.l})
	}
	if err := speed.Write(out); err != nil {
		return err
	}
	fmt.Fprintln(out, "\npages: different pages fetched (a repeat counts once, and only as a request). Mandelbot's pages/s counts until `mandelbot crawl` exited (its index caught up); the ceiling GETs every URL the crawl requested (sitemaps and robots.txt too) and its pages/s counts the pages among them; CPU is the child's user + system time; peak RSS the child's own (see README).")

	if err := writeCrawlPath(out, rs, name, multi); err != nil {
		return err
	}
	if err := writeDOM(out, rs, name, multi, selector); err != nil {
		return err
	}
	if err := writeBleve(out, rs, name, multi); err != nil {
		return err
	}

	if rs[0].ran.mandelbot {
		if err := writeRatios(out, runs, med, name, multi); err != nil {
			return err
		}
	}
	for i, r := range rs {
		if r.ran.warc {
			fmt.Fprintf(out, "%s: %d WARC files, %.1f MB (%.0f bytes per page)\n", name(nameWARC, i), r.warc.WARCFiles,
				float64(r.warc.WARCBytes)/1e6, float64(r.warc.WARCBytes)/float64(max(1, r.warc.Tally.DistinctPages())))
		}
	}

	fmt.Fprintln(out, "\nWhat each program asked the fake web for (counted as the requests arrived):")
	fmt.Fprintln(out)
	asked := mdtable.Table{
		Header: []string{"program", "pages", "robots.txt", "sitemaps", "/private/", "other", "repeated", "pages missed", "non-200", "before robots.txt", "its own count"},
		Right:  []bool{false, true, true, true, true, true, true, true, true, true, false},
	}
	tallyRow := func(what string, t tally, own string) {
		asked.Add(what, strconv.Itoa(t.Pages), strconv.Itoa(t.Robots), strconv.Itoa(t.Sitemaps),
			strconv.Itoa(t.Private), strconv.Itoa(t.Other), strconv.Itoa(t.Duplicates), strconv.Itoa(t.Missing),
			strconv.Itoa(t.NonOK), strconv.Itoa(t.BeforeRobots), own)
	}
	for i, r := range rs {
		if r.ran.mandelbot {
			tallyRow(name(nameMandelbot, i), r.crawl.Tally, "pages answered "+r.crawl.CrawlerSays)
		}
		if r.ran.warc {
			tallyRow(name(nameWARC, i), r.warc.Tally, "pages answered "+r.warc.CrawlerSays)
		}
		if r.ran.colly {
			tallyRow(name(nameColly, i), r.colly.Tally, fmt.Sprintf("%d responses, %d links refused for robots.txt", r.colly.Report.Responses, r.colly.Report.RobotsBlocked))
		}
		if r.ran.lib {
			tallyRow(name(nameLib, i), r.lib.Tally, fmt.Sprintf("%d pages, stop %s", r.lib.Report.Pages, r.lib.Report.Stop))
		}
		if r.ran.libDOM {
			tallyRow(name(nameLibDOM, i), r.libDOM.Tally, fmt.Sprintf("%d pages, %d selected, stop %s", r.libDOM.Report.Pages, r.libDOM.Report.Selected, r.libDOM.Report.Stop))
		}
		if r.ran.collyDOM {
			tallyRow(name(nameCollyDOM, i), r.collyDOM.Tally, fmt.Sprintf("%d responses, %d selected", r.collyDOM.Report.Responses, r.collyDOM.Report.Selected))
		}
		if r.ran.collyBleve {
			tallyRow(name(nameCollyBleve, i), r.collyBleve.Tally, fmt.Sprintf("%d responses, %d documents indexed", r.collyBleve.Report.Responses, r.collyBleve.Report.Indexed))
		}
	}
	if err := asked.Write(out); err != nil {
		return err
	}
	for i, r := range rs {
		prefix := ""
		if multi {
			prefix = "Run " + strconv.Itoa(i+1) + ": "
		}
		fmt.Fprintf(out, "%sthe crawl ended with %q; the loop opened %d connections and read %.1f MB of bodies; the launcher's own peak RSS was %s MiB.\n",
			prefix, r.crawl.StopReason, r.loop.Report.Conns, float64(r.loop.Report.Bytes)/1e6, mdtable.MiB(max(r.crawl.LauncherRSS, r.colly.LauncherRSS, r.loop.LauncherRSS)))
		if r.ran.mandelbot && r.crawl.WriteBytes >= 0 && r.crawl.StoreBytes > 0 {
			fmt.Fprintf(out, "%sMandelbot wrote %s MiB to disk (write_bytes) for a data directory of %s MiB at exit: %.1fx.\n",
				prefix, mdtable.MiB(r.crawl.WriteBytes), mdtable.MiB(r.crawl.StoreBytes), float64(r.crawl.WriteBytes)/float64(r.crawl.StoreBytes))
		}
	}

	fmt.Fprintln(out, "\nCPU time of this process serving the fake web while each program ran (same two cores):")
	fmt.Fprintln(out)
	cpu := mdtable.Table{Header: []string{"program", "fake web CPU s"}, Right: []bool{false, true}}
	for i, r := range rs {
		if r.ran.mandelbot {
			cpu.Add(name(nameMandelbot, i), mdtable.Secs(r.crawl.ServerCPU))
		}
		if r.ran.warc {
			cpu.Add(name(nameWARC, i), mdtable.Secs(r.warc.ServerCPU))
		}
		if r.ran.colly {
			cpu.Add(name(nameColly, i), mdtable.Secs(r.colly.ServerCPU))
		}
		if r.ran.ceiling {
			cpu.Add(name(nameCeiling, i), mdtable.Secs(r.loop.ServerCPU))
		}
	}
	return cpu.Write(out)
}

// medianFigures returns the median of each figure of one program over the runs; a program that
// broke in any run is broken.
func medianFigures[T any](runs []T, pick func(T) figures) figures {
	var walls, cpus []time.Duration
	var rss []int64
	var f figures
	for _, r := range runs {
		x := pick(r)
		f.broken = f.broken || x.broken
		f.absent = f.absent || x.absent
		f.pages, f.requests = x.pages, x.requests
		walls, cpus, rss = append(walls, x.wall), append(cpus, x.cpu), append(rss, x.rss)
	}
	f.wall, f.cpu, f.rss = median(walls), median(cpus), median(rss)
	return f
}

// writeCrawlPath prints the crawl path alone of each mandelbot run: its pages/s until the last
// request the web received, with the index still trailing, and how long the index then took to
// catch up before the crawl exited; beside Colly's pages/s of the same run.
func writeCrawlPath(out io.Writer, rs []result, name func(string, int) string, multi bool) error {
	path := mdtable.Table{
		Header: []string{"program", "last request at s", "pages/s until then", "index catch-up s", "/ Colly's pages/s"},
		Right:  []bool{false, true, true, true, true},
	}
	var untils, catchUps []time.Duration
	var ratios []float64
	add := func(what string, pages int, until, catchUp time.Duration, ratio float64) {
		r := "-"
		if ratio > 0 {
			r = fmt.Sprintf("%.2f", ratio)
		}
		path.Add(what, mdtable.Secs(until), fmt.Sprintf("%.0f", float64(pages)/until.Seconds()), mdtable.Secs(catchUp), r)
	}
	pages := 0
	for i, r := range rs {
		if !r.ran.mandelbot || r.crawl.Requesting <= 0 {
			continue
		}
		pages = r.crawl.Tally.DistinctPages()
		until, catchUp := r.crawl.Requesting, r.crawl.Wall-r.crawl.Requesting
		ratio := 0.0
		if r.ran.colly && r.colly.Err == nil && r.colly.Wall > 0 {
			colly := float64(r.colly.Tally.DistinctPages()) / r.colly.Wall.Seconds()
			ratio = float64(pages) / until.Seconds() / colly
			ratios = append(ratios, ratio)
		}
		untils, catchUps = append(untils, until), append(catchUps, catchUp)
		add(name(nameMandelbot, i), pages, until, catchUp, ratio)
	}
	if len(untils) == 0 {
		return nil
	}
	if multi {
		slices.Sort(ratios)
		ratio := 0.0
		if len(ratios) > 0 {
			ratio = ratios[len(ratios)/2]
		}
		add(nameMandelbot+", median", pages, median(untils), median(catchUps), ratio)
	}
	fmt.Fprintln(out, "\nThe crawl path alone: until the last request the fake web received, with the index trailing; then the index's catch-up until the crawl exited:")
	fmt.Fprintln(out)
	return path.Write(out)
}

// writeRatios prints mandelbot's figures divided by each peer's, per run and of the medians.
func writeRatios(out io.Writer, runs []triple, med triple, name func(string, int) string, multi bool) error {
	fmt.Fprintln(out, "\nRatios (mandelbot divided by the peer; pages/s: higher is better for mandelbot, CPU and RSS: lower is):")
	fmt.Fprintln(out)
	ratios := mdtable.Table{
		Header: []string{"ratio", "pages/s", "CPU us/page", "peak RSS"},
		Right:  []bool{false, true, true, true},
	}
	ratio := func(what string, m, p figures) {
		if m.absent || p.absent {
			return
		}
		if m.broken || p.broken {
			ratios.Add(what, "-", "-", "-")
			return
		}
		rss := "-"
		if m.rss > 0 && p.rss > 0 {
			rss = fmt.Sprintf("%.2f", float64(m.rss)/float64(p.rss))
		}
		ratios.Add(what, fmt.Sprintf("%.2f", m.pagesPerSec()/p.pagesPerSec()), fmt.Sprintf("%.2f", m.cpuPerPage()/p.cpuPerPage()), rss)
	}
	for i, t := range runs {
		ratio(name("mandelbot --warc / mandelbot", i), t.w, t.m)
		ratio(name("mandelbot / Colly", i), t.m, t.c)
		ratio(name("mandelbot / ceiling", i), t.m, t.l)
	}
	if multi {
		ratio("mandelbot --warc / mandelbot, medians", med.w, med.m)
		ratio("mandelbot / Colly, medians", med.m, med.c)
		ratio("mandelbot / ceiling, medians", med.m, med.l)
	}
	return ratios.Write(out)
}
