package main

import (
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	if got := median([]int64{5, 1, 3}); got != 3 {
		t.Errorf("median odd = %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 { // (2+3)/2 in integer units
		t.Errorf("median even = %d", got)
	}
	in := []float64{2, 1}
	if got := median(in); got != 1.5 || in[0] != 2 {
		t.Errorf("median = %v, input now %v (must not be sorted in place)", got, in)
	}
	if got := median[int64](nil); got != 0 {
		t.Errorf("median of nothing = %d", got)
	}
}

func TestFormats(t *testing.T) {
	if got := rate(500, 2*time.Second); got != "250" {
		t.Errorf("rate = %q", got)
	}
}
