package main

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"

	"github.com/fractle/mandelbot/bench/internal/mdtable"
)

// nameCollyBleve is issue 26's peer: Colly storing every page's title and text in bleve v2.6.3
// (English analyzer, batches of 1,000; collypeer -bleve), the crawl-and-search a Go user would
// assemble today.
const nameCollyBleve = "Colly v2.3.0 + bleve v2.6.3"

// dirBytes is the size of the files under dir; -1 if it cannot be read.
func dirBytes(dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		return -1
	}
	return n
}

// bleveChecks returns what went wrong in a colly-bleve run beyond collyChecks: every page it
// fetched must be in its index, once (a page Colly fetched twice is one document).
func bleveChecks(c collyRun) []string {
	p := collyChecks(c)
	if pages := c.Tally.DistinctPages(); c.Err == nil && int(c.Report.Indexed) != pages {
		p = append(p, fmt.Sprintf("%d documents in the index for %d different pages fetched", c.Report.Indexed, pages))
	}
	return p
}

// writeBleve prints the colly-bleve runs beside mandelbot's (issue 26): both fetch, store and
// index every page, so the ratio is of the same work.
func writeBleve(out io.Writer, rs []result, name func(string, int) string, multi bool) error {
	if !rs[0].ran.collyBleve {
		return nil
	}
	type pair struct{ m, b figures }
	var runs []pair
	t := mdtable.Table{
		Header: []string{"program", "pages", "seconds", "pages/s", "CPU us/page", "peak RSS MiB", "index MB"},
		Right:  []bool{false, true, true, true, true, true, true},
	}
	add := func(what string, f figures, indexBytes int64) {
		size := "-"
		if indexBytes >= 0 {
			size = fmt.Sprintf("%.1f", float64(indexBytes)/1e6)
		}
		switch {
		case f.absent:
		case f.broken:
			t.Add(what+" (broke, see above)", strconv.Itoa(f.pages), "-", "-", "-", mdtable.MiB(f.rss), size)
		default:
			t.Add(what, strconv.Itoa(f.pages), mdtable.Secs(f.wall), fmt.Sprintf("%.0f", f.pagesPerSec()),
				fmt.Sprintf("%.0f", f.cpuPerPage()), mdtable.MiB(f.rss), size)
		}
	}
	for i, r := range rs {
		p := pair{m: measured(r.crawl.Run, r.crawl.Tally.DistinctPages(), r.crawl.Tally.Total()),
			b: measured(r.collyBleve.Run, r.collyBleve.Tally.DistinctPages(), r.collyBleve.Tally.Total())}
		p.m.absent, p.b.broken = !r.ran.mandelbot, r.collyBleve.Err != nil
		runs = append(runs, p)
		add(name(nameCollyBleve, i), p.b, r.bleveBytes)
	}
	med := pair{m: medianFigures(runs, func(p pair) figures { return p.m }), b: medianFigures(runs, func(p pair) figures { return p.b })}
	if multi {
		add(nameCollyBleve+", median", med.b, -1)
	}
	fmt.Fprintf(out, "\nColly storing and indexing every page in bleve (issue 26's peer; the index is made in the run, its time counted until the last batch is indexed and the index closed):\n\n")
	if err := t.Write(out); err != nil {
		return err
	}
	if !med.m.absent && !med.m.broken && !med.b.broken {
		fmt.Fprintf(out, "\nmandelbot / %s (medians): %.2fx the pages/s, %.2fx the CPU per page.\n", nameCollyBleve,
			med.m.pagesPerSec()/med.b.pagesPerSec(), med.m.cpuPerPage()/med.b.cpuPerPage())
	}
	return nil
}
