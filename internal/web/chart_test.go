package web

import (
	"strings"
	"testing"
	"time"
)

// Issue 10, "a pages/s chart over time (server-rendered SVG, no CDN)": one page a second for
// two minutes is drawn in 5-second points at a steady 1.0/s, as an inline SVG with no script
// or outside reference.
func TestFetchChart(t *testing.T) {
	var times []time.Time
	for i := range 120 {
		times = append(times, t0.Add(time.Duration(i)*time.Second))
	}
	svg, caption := fetchChart(times)
	if !strings.Contains(caption, "one point per 5s; peak 1.0/s") {
		t.Errorf("caption %q", caption)
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg") || strings.Contains(s, "<script") || strings.Contains(s, "http") {
		t.Errorf("svg %q", s)
	}
	if n := strings.Count(s[strings.Index(s, `points="`):], ","); n != 24 {
		t.Errorf("%d points, want 24 (120 s in 5 s steps)", n)
	}
	if svg, _ := fetchChart(times[:1]); svg != "" {
		t.Error("a chart of one page")
	}
}
