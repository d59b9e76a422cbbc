package main

import (
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"io"
	"strconv"
	"time"
)

// report prints the three tables: throughput against the ceiling, what the crawl asked for,
// and where the CPU went.
func report(out io.Writer, rs []result) error {
	multi := len(rs) > 1
	name := func(what string, i int) string {
		if multi {
			return what + ", run " + strconv.Itoa(i+1)
		}
		return what
	}

	speed := mdtable.Table{
		Header: []string{"what", "requests", "seconds", "requests/s", "peak RSS MiB", "ratio to ceiling"},
		Right:  []bool{false, true, true, true, true, true},
	}
	row := func(what string, requests int, wall time.Duration, rss int64, ceiling float64) {
		rps := float64(requests) / wall.Seconds()
		speed.Add(what, strconv.Itoa(requests), mdtable.Secs(wall), fmt.Sprintf("%.0f", rps), mdtable.MiB(rss), fmt.Sprintf("%.2f", rps/ceiling))
	}
	var cw, lw []time.Duration
	var crss, lrss []int64
	for i, r := range rs {
		ceiling := float64(r.loop.Report.Requests) / r.loop.Wall.Seconds()
		row(name("mandelbot crawl", i), r.crawl.Tally.Total(), r.crawl.Wall, r.crawl.PeakRSS, ceiling)
		row(name("net/http loop (ceiling)", i), r.loop.Report.Requests, r.loop.Wall, r.loop.PeakRSS, ceiling)
		cw, lw = append(cw, r.crawl.Wall), append(lw, r.loop.Wall)
		crss, lrss = append(crss, r.crawl.PeakRSS), append(lrss, r.loop.PeakRSS)
	}
	if multi {
		n := rs[0].crawl.Tally.Total() // every run crawls the same web
		ceiling := float64(rs[0].loop.Report.Requests) / median(lw).Seconds()
		row("mandelbot crawl, median", n, median(cw), median(crss), ceiling)
		row("net/http loop (ceiling), median", rs[0].loop.Report.Requests, median(lw), median(lrss), ceiling)
	}
	if err := speed.Write(out); err != nil {
		return err
	}
	for i, r := range rs {
		prefix := ""
		if multi {
			prefix = "Run " + strconv.Itoa(i+1) + ": "
		}
		fmt.Fprintf(out, "%sthe crawl ended with %q; the loop opened %d connections and read %.1f MB of bodies; the launcher's own peak RSS, the floor of the column, was %s MiB.\n",
			prefix, r.crawl.StopReason, r.loop.Report.Conns, float64(r.loop.Report.Bytes)/1e6, mdtable.MiB(max(r.crawl.LauncherRSS, r.loop.LauncherRSS)))
	}

	fmt.Fprintln(out, "\nWhat the crawl asked for (from the fake web's request log):")
	fmt.Fprintln(out)
	pages := mdtable.Table{
		Header: []string{"run", "pages", "robots.txt", "sitemaps", "/private/", "other", "repeated", "pages missed", "non-200", "pages/s", "crawler's own count"},
		Right:  []bool{false, true, true, true, true, true, true, true, true, true, false},
	}
	for i, r := range rs {
		t := r.crawl.Tally
		pages.Add(strconv.Itoa(i+1), strconv.Itoa(t.Pages), strconv.Itoa(t.Robots), strconv.Itoa(t.Sitemaps),
			strconv.Itoa(t.Private), strconv.Itoa(t.Other), strconv.Itoa(t.Duplicates), strconv.Itoa(t.Missing),
			strconv.Itoa(t.NonOK), rate(t.Pages, r.crawl.Wall), r.crawl.CrawlerSays)
	}
	if err := pages.Write(out); err != nil {
		return err
	}

	fmt.Fprintln(out, "\nCPU time (user + system): the child, and this process serving the fake web meanwhile:")
	fmt.Fprintln(out)
	cpu := mdtable.Table{
		Header: []string{"what", "child CPU s", "child CPU us/request", "fake web CPU s"},
		Right:  []bool{false, true, true, true},
	}
	perReq := func(d time.Duration, n int) string { return fmt.Sprintf("%.0f", float64(d.Microseconds())/float64(n)) }
	for i, r := range rs {
		cpu.Add(name("mandelbot crawl", i), mdtable.Secs(r.crawl.CPU), perReq(r.crawl.CPU, r.crawl.Tally.Total()), mdtable.Secs(r.crawl.ServerCPU))
		cpu.Add(name("net/http loop (ceiling)", i), mdtable.Secs(r.loop.CPU), perReq(r.loop.CPU, r.loop.Report.Requests), mdtable.Secs(r.loop.ServerCPU))
	}
	return cpu.Write(out)
}
