package main

import (
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"io"
	"strconv"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// report prints the tables: indexing throughput, size on disk, search latency.
func report(out io.Writer, m measurement) error {
	b := m.build
	perSec := func(n int, d time.Duration) string { return fmt.Sprintf("%.0f", float64(n)/d.Seconds()) }
	speed := mdtable.Table{
		Header: []string{"phase", "documents", "seconds", "documents/s", "what was done"},
		Right:  []bool{false, true, true, true, false},
	}
	speed.Add("commit (inside Store.Commit)", strconv.Itoa(b.Documents), mdtable.Secs(b.Commit), perSec(b.Documents, b.Commit),
		fmt.Sprintf("%d commits: %d URL outcomes, %d links", b.Batches, b.Documents+b.Skipped, b.Links))
	speed.Add("build, wall", strconv.Itoa(b.Documents), mdtable.Secs(b.Wall), perSec(b.Documents, b.Wall),
		"commits + generating pages + counting words")
	speed.Add("refresh (RefreshIndex)", strconv.Itoa(b.Documents), mdtable.Secs(m.refresh), perSec(b.Documents, m.refresh),
		fmt.Sprintf("%d entries rewritten (%s/s)%s", m.refreshed, perSec(m.refreshed, m.refresh), refreshCPUNote(m)))
	speed.Add("commit + refresh", strconv.Itoa(b.Documents), mdtable.Secs(b.Commit+m.refresh), perSec(b.Documents, b.Commit+m.refresh), "")
	if err := speed.Write(out); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%d documents, %d searchable (the rest say noindex); %d URLs skipped (/private/, robots.txt); URLs by state:",
		b.Documents, b.Indexed, b.Skipped)
	for _, s := range []store.State{store.StateFetched, store.StateRobotsDisallowed, store.StateQueued} {
		fmt.Fprintf(out, " %s %d", s, m.counts[s])
	}
	fmt.Fprintf(out, "; peak RSS of this process %s MiB\n\n", mdtable.MiB(m.peakRSS))

	size := mdtable.Table{
		Header: []string{"file", "after build, bytes", "after close, bytes"},
		Right:  []bool{false, true, true},
	}
	name := func(f string) string {
		if f == "pg" {
			return "PostgreSQL schema (tables, indexes, TOAST)"
		}
		return f
	}
	sz := func(n int64) string {
		if n < 0 {
			return "-"
		}
		return strconv.FormatInt(n, 10)
	}
	for i, f := range m.built {
		size.Add(name(f.Name), sz(f.Size), sz(m.closed[i].Size))
	}
	db1, db2 := dataBytes(m.built), dataBytes(m.closed)
	size.Add("database + WAL", sz(db1), sz(db2))
	perDoc := func(n int64) string { return fmt.Sprintf("%.0f", float64(n)/float64(b.Documents)) }
	size.Add("bytes per document", perDoc(db1), perDoc(db2))
	if err := size.Write(out); err != nil {
		return err
	}

	fmt.Fprintln(out)
	return reportQueries(out, m)
}

// reportQueries writes the query words and the latency of each query class.
func reportQueries(out io.Writer, m measurement) error {
	fmt.Fprintln(out, "Query words, by the number of documents that contain them:")
	for _, bd := range m.bands {
		fmt.Fprintf(out, "  %-8s %4d words (%2d-%3d%% of the vocabulary by frequency), each in %d to %d documents\n",
			bd.Name, len(bd.Words), bd.FromPct, bd.ToPct, bd.MinDF, bd.MaxDF)
	}
	fmt.Fprintln(out)
	lat := mdtable.Table{
		Header: []string{"queries", "searches", "p50 ms", "p95 ms", "p99 ms", "max ms", "mean CPU ms", "mean results", "mean total"},
		Right:  []bool{false, true, true, true, true, true, true, true, true},
	}
	var all []sample
	addRow := func(name string, ss []sample) {
		ds := make([]time.Duration, len(ss))
		var results, total int
		var cpu time.Duration
		for i, s := range ss {
			ds[i], results, total = s.Took, results+s.Results, total+s.Total
			if cpu >= 0 && s.CPU >= 0 {
				cpu += s.CPU
			} else {
				cpu = -1
			}
		}
		n := float64(len(ss))
		meanCPU := "-"
		if cpu >= 0 && len(ss) > 0 {
			meanCPU = ms(cpu / time.Duration(len(ss)))
		}
		lat.Add(name, strconv.Itoa(len(ss)), ms(percentile(ds, 50)), ms(percentile(ds, 95)), ms(percentile(ds, 99)),
			ms(percentile(ds, 100)), meanCPU, fmt.Sprintf("%.1f", float64(results)/n), fmt.Sprintf("%.0f", float64(total)/n))
	}
	for _, c := range m.classes {
		addRow(c, m.samples[c])
		all = append(all, m.samples[c]...)
	}
	addRow("all", all)
	return lat.Write(out)
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000)
}

// refreshCPUNote says how much CPU RefreshIndex took: this process's, and the PostgreSQL
// server's when it was measured (-pg; every process of the server, other users' too).
func refreshCPUNote(m measurement) string {
	note := ""
	if m.refreshCPU >= 0 {
		note += "; CPU: this process " + mdtable.Secs(m.refreshCPU) + " s"
	}
	if m.refreshServerCPU >= 0 {
		note += ", the PostgreSQL server " + mdtable.Secs(m.refreshServerCPU) + " s"
	}
	return note
}
