// Package mdtable prints the benchmarks' tables: Markdown tables whose columns are padded to a
// fixed width, so that they read in a terminal and paste into BENCHMARKS.md unchanged.
package mdtable

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Table is a Markdown table. Cells are ASCII (width = byte length). The zero value has no
// columns: set Header (and Right, the same length) first. Not safe for concurrent use.
type Table struct {
	Header []string
	Right  []bool // Right[i]: column i holds numbers, aligned right
	rows   [][]string
}

// Add appends a row of cells, one per column.
func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Write prints the table to w.
func (t *Table) Write(w io.Writer) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = max(len(h), 3)
	}
	for _, r := range t.rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteByte('|')
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-len(c))
			if t.Right[i] {
				c = pad + c
			} else {
				c += pad
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteByte('\n')
	}
	line(t.Header)
	b.WriteByte('|')
	for i := range t.Header {
		if t.Right[i] {
			b.WriteString(" " + strings.Repeat("-", width[i]-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", width[i]) + " |")
		}
	}
	b.WriteByte('\n')
	for _, r := range t.rows {
		line(r)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// MiB formats a byte count in MiB with one decimal, "-" when unknown (negative).
func MiB(b int64) string {
	if b < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(b)/(1<<20))
}

// Secs formats a duration in seconds with two decimals, "-" when unknown (negative).
func Secs(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", d.Seconds())
}
