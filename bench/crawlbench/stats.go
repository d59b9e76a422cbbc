package main

import (
	"fmt"
	"slices"
	"time"
)

// rate formats n per d, "-" when d is not positive.
func rate(n int, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(n)/d.Seconds())
}

// median returns the median of xs (the mean of the two middle values for an even count), or
// 0 for none. xs is not modified.
func median[T int64 | time.Duration | float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
