package web

import (
	"strings"
	"testing"
	"time"
)

// Issue 10, "a pages/s chart over time (server-rendered SVG, no CDN)": one page a second for
// two minutes is drawn in 5-second bars at a steady 1.0/s, as an inline SVG with no script
// or outside reference.
func TestFetchChart(t *testing.T) {
	var times []time.Time
	for i := range 120 {
		times = append(times, t0.Add(time.Duration(i)*time.Second))
	}
	svg, caption := fetchChart(times)
	if !strings.Contains(caption, "one bar per 5s; peak 1.0/s") {
		t.Errorf("caption %q", caption)
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg") || strings.Contains(s, "<script") || strings.Contains(s, "http") {
		t.Errorf("svg %q", s)
	}
	if n := strings.Count(s, "<rect"); n != 24 {
		t.Errorf("%d bars, want 24 (120 s in 5 s steps)", n)
	}
	// A burst within one second still draws a visible chart: one bar among chartMinBars.
	burst := []time.Time{t0, t0, t0.Add(100 * time.Millisecond)}
	if svg, caption := fetchChart(burst); strings.Count(string(svg), "<rect") != 1 || !strings.Contains(caption, "peak 3.0/s") {
		t.Errorf("burst: %q %q", svg, caption)
	}
	if svg, _ := fetchChart(times[:1]); svg != "" {
		t.Error("a chart of one page")
	}
}
