package web

import (
	"fmt"
	"html/template"
	"strings"
	"time"
)

// Shape of the fetch chart.
const (
	chartBuckets = 60
	chartWidth   = 600
	chartHeight  = 120
)

// chartSteps are the bucket widths the chart may use, smallest first.
var chartSteps = []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second,
	time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 6 * time.Hour, 24 * time.Hour}

// fetchChart draws pages per second over time as an inline SVG (no script, no external
// resource), from the times pages were last fetched: a page fetched twice counts at its last
// fetch. It returns "" when fewer than two pages were fetched.
func fetchChart(times []time.Time) (template.HTML, string) {
	if len(times) < 2 {
		return "", ""
	}
	first, last := times[0], times[0]
	for _, t := range times {
		if t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	step := chartSteps[len(chartSteps)-1]
	for _, s := range chartSteps {
		if last.Sub(first) < s*chartBuckets {
			step = s
			break
		}
	}
	start := first.Truncate(step)
	n := int(last.Sub(start)/step) + 1
	counts := make([]int, n)
	for _, t := range times {
		if i := int(t.Sub(start) / step); i >= 0 && i < n {
			counts[i]++
		}
	}
	peak := 1
	for _, c := range counts {
		peak = max(peak, c)
	}
	var pts strings.Builder
	for i, c := range counts {
		x := float64(i) * chartWidth / float64(max(n-1, 1))
		y := chartHeight - float64(c)*chartHeight/float64(peak)
		fmt.Fprintf(&pts, "%.1f,%.1f ", x, y)
	}
	rate := float64(peak) / step.Seconds()
	svg := fmt.Sprintf(`<svg class="chart" viewBox="-2 -2 %d %d" width="%d" height="%d" role="img" aria-label="pages per second over time">`+
		`<polyline fill="none" stroke="#2f6fb0" stroke-width="2" points="%s"/>`+
		`<line x1="0" y1="%d" x2="%d" y2="%d" stroke="#999" stroke-width="1"/></svg>`,
		chartWidth+4, chartHeight+4, chartWidth+4, chartHeight+4, strings.TrimSpace(pts.String()), chartHeight, chartWidth, chartHeight)
	caption := fmt.Sprintf("Pages per second, by time of last fetch, %s to %s (one point per %s; peak %.1f/s)",
		start.UTC().Format(timeLayout), last.UTC().Format(timeLayout), step, rate)
	return template.HTML(svg), caption // built only from numbers and fixed text
}
