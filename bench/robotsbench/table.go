package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// table is a Markdown table whose columns are padded to a fixed width, so
// that it reads in a terminal and pastes into Markdown unchanged. Cells are
// assumed to be ASCII (width = byte length).
type table struct {
	header []string
	right  []bool // right[i]: column i is numeric, aligned right
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table to w, one line per row.
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
		b.WriteString("|")
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-len(c))
			if t.right[i] {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|")
	for i := range t.header {
		if t.right[i] {
			b.WriteString(" " + strings.Repeat("-", width[i]-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", width[i]) + " |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// group formats a non-negative whole number with thousands separators.
func group(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// fmtNs formats a duration in nanoseconds: one decimal below 100 ns, whole
// nanoseconds with separators above.
func fmtNs(ns float64) string {
	if ns < 100 {
		return fmt.Sprintf("%.1f", ns)
	}
	return group(int64(ns + 0.5))
}

// fmtRatio formats x as a factor ("12.3x"), or "-" when undefined.
func fmtRatio(x float64) string {
	switch {
	case x != x || x <= 0:
		return "-"
	case x < 10:
		return fmt.Sprintf("%.2fx", x)
	case x < 100:
		return fmt.Sprintf("%.1fx", x)
	default:
		return group(int64(x+0.5)) + "x"
	}
}

// fmtDur formats d with three significant digits in ASCII units (ns, us,
// ms, s), e.g. "41.2us".
func fmtDur(d time.Duration) string {
	v := float64(d)
	unit := "ns"
	for _, u := range []struct {
		name string
		size float64
	}{{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}} {
		if v >= u.size {
			v /= u.size
			unit = u.name
			break
		}
	}
	switch {
	case unit == "ns" || v >= 100:
		return fmt.Sprintf("%.0f%s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f%s", v, unit)
	default:
		return fmt.Sprintf("%.2f%s", v, unit)
	}
}

// fmtMedian formats the median of xs with f, or "-" for no values.
func fmtMedian(xs []float64, f func(float64) string) string {
	if len(xs) == 0 {
		return "-"
	}
	return f(median(xs))
}

// fmtMBs formats a throughput in MB/s with one decimal.
func fmtMBs(x float64) string { return fmt.Sprintf("%.1f", x) }
