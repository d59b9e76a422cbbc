package main

import (
	"fmt"
	"strings"
	"time"
)

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
