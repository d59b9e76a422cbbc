package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/mdtable"
)

// report is everything the evaluation prints.
type report struct {
	Name      string   // the set's name, for the summary of several sets
	Header    []string // the query set's header comment
	Site      string
	Pages     int // .html files under Site
	Crawl     crawlResult
	CrawlTime time.Duration // zero with -reuse
	Requests  int64
	ByStatus  map[int]int
	Outcomes  []Outcome
}

// maxCell is the widest a query or URL cell gets, so that the table stays readable.
const maxCell = 60

func (r report) write(w io.Writer) error {
	var b strings.Builder
	for _, h := range r.Header {
		if strings.HasPrefix(h, "site:") || strings.HasPrefix(h, "version") || strings.Contains(h, "postgresql-doc") {
			fmt.Fprintf(&b, "%s\n", h)
		}
	}
	fmt.Fprintf(&b, "served from %s: %d HTML pages\n", r.Site, r.Pages)
	if r.CrawlTime > 0 {
		codes := make([]int, 0, len(r.ByStatus))
		for c := range r.ByStatus {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		var parts []string
		for _, c := range codes {
			parts = append(parts, fmt.Sprintf("%d: %d", c, r.ByStatus[c]))
		}
		fmt.Fprintf(&b, "crawl: %s s, %d requests (%s), crawler: %q, ended: %s\n",
			mdtable.Secs(r.CrawlTime), r.Requests, strings.Join(parts, ", "), r.Crawl.CrawlerSays, r.Crawl.StopReason)
	} else {
		b.WriteString("crawl: reused\n")
	}
	b.WriteString("\n")

	all := mdtable.Table{Header: []string{"queries", "class", "MRR@10", "success@1", "success@10", "best page first", "link-only in top 5"},
		Right: []bool{true, false, true, true, true, true, true}}
	addRow := func(class string, outs []Outcome) {
		m := measure(outs)
		all.Add(strconv.Itoa(m.N), class, fmt.Sprintf("%.3f", m.MRR), pct(m.Success1), pct(m.Success10), pct(m.Best1),
			strconv.Itoa(m.LinkOnlyTop5))
	}
	addRow("all", r.Outcomes)
	for _, c := range classes {
		var outs []Outcome
		for _, o := range r.Outcomes {
			if o.Class == c {
				outs = append(outs, o)
			}
		}
		if len(outs) > 0 {
			addRow(c, outs)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := all.Write(w); err != nil {
		return err
	}

	per := mdtable.Table{Header: []string{"line", "query", "class", "rank", "best", "total", "first result", "wanted"},
		Right: []bool{true, false, false, true, true, true, false, false}}
	for _, o := range r.Outcomes {
		first := "(none)"
		if o.Err != "" {
			first = "error: " + o.Err
		} else if len(o.Results) > 0 {
			h := o.Results[0]
			first = h.Path
			if first == "" {
				first = h.URL
			}
			if h.LinkOnly {
				first += " (link-only)"
			}
		}
		per.Add(strconv.Itoa(o.Line), cell(o.Query), o.Class, rankCell(o.Rank), rankCell(o.BestRank),
			strconv.Itoa(o.Total), cell(first), cell(o.Relevant[0]))
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return per.Write(w)
}

// writeSummary prints one row per set: the overall measures of each, side by side.
func writeSummary(w io.Writer, reps []report) error {
	t := mdtable.Table{Header: []string{"set", "queries", "MRR@10", "success@1", "success@10", "best page first", "link-only in top 5"},
		Right: []bool{false, true, true, true, true, true, true}}
	for _, r := range reps {
		m := measure(r.Outcomes)
		t.Add(cell(r.Name), strconv.Itoa(m.N), fmt.Sprintf("%.3f", m.MRR), pct(m.Success1), pct(m.Success10), pct(m.Best1),
			strconv.Itoa(m.LinkOnlyTop5))
	}
	if _, err := io.WriteString(w, "\n## all sets\n\n"); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return t.Write(w)
}

// pct formats a fraction as a percentage with one decimal.
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// rankCell is a rank, or "-" for none in the top cutoff.
func rankCell(r int) string {
	if r == 0 {
		return "-"
	}
	return strconv.Itoa(r)
}

// cell makes s fit a table cell: ASCII only (mdtable counts bytes), no pipes, at most maxCell
// bytes.
func cell(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '|':
			b.WriteString(`\|`)
		case r < 0x20 || r >= 0x7f:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if len(out) > maxCell {
		out = out[:maxCell-3] + "..."
	}
	return out
}
