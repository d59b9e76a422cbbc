package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/fractle/mandelbot/bench/internal/mdtable"
)

// report prints the tables: speed, CPU and memory of both programs and their ratio; what each
// asked nginx for; and which pages only one of them fetched.
func report(out io.Writer, rs []result, disallow string) error {
	multi := len(rs) > 1
	name := func(what string, i int) string {
		if multi {
			return what + ", run " + strconv.Itoa(i+1)
		}
		return what
	}
	speed := mdtable.Table{
		Header: []string{"program", "pages", "requests", "seconds", "pages/s", "CPU s", "CPU us/page", "peak RSS MiB"},
		Right:  []bool{false, true, true, true, true, true, true, true},
	}
	add := func(what string, r crawlerRun) {
		speed.Add(what, strconv.Itoa(r.Tally.Pages), strconv.Itoa(r.Tally.Requests), mdtable.Secs(r.Wall),
			perSec(r.Tally.Pages, r.Wall), mdtable.Secs(r.CPU), perPage(r.CPU, r.Tally.Pages), mdtable.MiB(r.PeakRSS()))
	}
	for i, r := range rs {
		add(name("wget -r", i), r.wget)
		add(name("mandelbot crawl", i), r.mandelbot)
	}
	if multi {
		add("wget -r, median", medianRun(rs, func(r result) crawlerRun { return r.wget }))
		add("mandelbot crawl, median", medianRun(rs, func(r result) crawlerRun { return r.mandelbot }))
	}
	if err := speed.Write(out); err != nil {
		return err
	}
	fmt.Fprintln(out, "\npages: HTML documents answered 200 (a path ending in .html or /); seconds: from start to exit (mandelbot's until its index caught up); CPU: the child's user + system time; peak RSS: the child's own.")

	fmt.Fprintln(out, "\nRatios (mandelbot divided by wget):")
	fmt.Fprintln(out)
	ratios := mdtable.Table{Header: []string{"run", "pages/s", "CPU us/page", "peak RSS"}, Right: []bool{false, true, true, true}}
	ratio := func(what string, w, m crawlerRun) {
		pw := float64(w.Tally.Pages) / w.Wall.Seconds()
		pm := float64(m.Tally.Pages) / m.Wall.Seconds()
		cw := float64(w.CPU) / float64(w.Tally.Pages)
		cm := float64(m.CPU) / float64(m.Tally.Pages)
		rss := "-"
		if w.PeakRSS() > 0 && m.PeakRSS() > 0 {
			rss = fmt.Sprintf("%.2f", float64(m.PeakRSS())/float64(w.PeakRSS()))
		}
		ratios.Add(what, fmt.Sprintf("%.2f", pm/pw), fmt.Sprintf("%.2f", cm/cw), rss)
	}
	for i, r := range rs {
		ratio(strconv.Itoa(i+1), r.wget, r.mandelbot)
	}
	if multi {
		ratio("medians", medianRun(rs, func(r result) crawlerRun { return r.wget }), medianRun(rs, func(r result) crawlerRun { return r.mandelbot }))
	}
	if err := ratios.Write(out); err != nil {
		return err
	}

	fmt.Fprintln(out, "\nWhat each program asked nginx for (its access log):")
	fmt.Fprintln(out)
	asked := mdtable.Table{
		Header: []string{"program", "requests", "pages", "robots.txt", "non-200", "repeated", "under " + disallow, "body MB", "nginx CPU s"},
		Right:  []bool{false, true, true, true, true, true, true, true, true},
	}
	tallyRow := func(what string, r crawlerRun) {
		t := r.Tally
		asked.Add(what, strconv.Itoa(t.Requests), strconv.Itoa(t.Pages), strconv.Itoa(t.Robots), strconv.Itoa(t.NonOK),
			strconv.Itoa(t.Repeated), strconv.Itoa(t.Disallowed), fmt.Sprintf("%.1f", float64(t.Bytes)/1e6), mdtable.Secs(r.ServerCPU))
	}
	for i, r := range rs {
		tallyRow(name("wget -r", i), r.wget)
		tallyRow(name("mandelbot crawl", i), r.mandelbot)
	}
	if err := asked.Write(out); err != nil {
		return err
	}
	for i, r := range rs {
		prefix := ""
		if multi {
			prefix = "Run " + strconv.Itoa(i+1) + ": "
		}
		nw, ew := onlyIn(r.wget.Tally, r.mandelbot.Tally)
		nm, em := onlyIn(r.mandelbot.Tally, r.wget.Tally)
		fmt.Fprintf(out, "%sthe crawl ended with %q (mandelbot: pages answered %s); answered 200 to wget only: %d %q; to mandelbot only: %d %q; non-200 examples: wget %q, mandelbot %q; the launcher's own peak RSS was %s MiB (wget's ru_maxrss %s MiB, its sampled VmHWM %s MiB).\n",
			prefix, r.mandelbot.Stop, r.mandelbot.Says, nw, ew, nm, em, r.wget.Tally.NonOKSeen, r.mandelbot.Tally.NonOKSeen,
			mdtable.MiB(r.wget.LauncherRSS), mdtable.MiB(r.wget.RusageRSS), mdtable.MiB(r.wget.SampledHWM))
	}
	return nil
}

func perSec(n int, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(n)/d.Seconds())
}

func perPage(d time.Duration, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(d.Microseconds())/float64(n))
}

// medianRun returns a run whose wall time, CPU time and peak RSS are the medians of the
// picked runs (an even count takes the upper middle), and whose counts are the first run's.
func medianRun(rs []result, pick func(result) crawlerRun) crawlerRun {
	var walls, cpus []time.Duration
	var rss []int64
	for _, r := range rs {
		c := pick(r)
		walls, cpus, rss = append(walls, c.Wall), append(cpus, c.CPU), append(rss, c.PeakRSS())
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	slices.Sort(rss)
	m := pick(rs[0])
	m.Wall, m.CPU = walls[len(walls)/2], cpus[len(cpus)/2]
	m.RusageRSS, m.LauncherRSS, m.SampledHWM = rss[len(rss)/2], 0, -1
	return m
}
