package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// table is a Markdown table with columns padded to a fixed width, so that it reads in a
// terminal and pastes into Markdown unchanged. Cells are ASCII. The zero value has no columns:
// set header (and right, the same length) first.
type table struct {
	header []string
	right  []bool // right[i]: column i holds numbers, aligned right
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table to w.
func (t *table) write(w io.Writer) error {
	width := make([]int, len(t.header))
	for i, h := range t.header {
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
			if t.right[i] {
				c = pad + c
			} else {
				c += pad
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteByte('\n')
	}
	line(t.header)
	b.WriteByte('|')
	for i := range t.header {
		if t.right[i] {
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

// mib formats a byte count in MiB with one decimal, "-" when unknown (negative).
func mib(b int64) string {
	if b < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(b)/(1<<20))
}

// secs formats a duration in seconds with two decimals, "-" when unknown (negative).
func secs(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", d.Seconds())
}
