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
	// chartMinBars: a short crawl still gets a readable chart, its pages at the right end.
	chartMinBars = 12
	chartWidth   = 600
	chartHeight  = 120
)

// chartSteps are the bucket widths the chart may use, smallest first.
var chartSteps = []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second,
	time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 6 * time.Hour, 24 * time.Hour}

// fetchChart draws pages per second over time as an inline SVG bar chart (no script, no external
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
	if n < chartMinBars {
		start, n = start.Add(-time.Duration(chartMinBars-n)*step), chartMinBars
	}
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
	var bars strings.Builder
	w := float64(chartWidth) / float64(n)
	for i, c := range counts {
		if c == 0 {
			continue
		}
		h := float64(c) * chartHeight / float64(peak)
		fmt.Fprintf(&bars, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, float64(i)*w, chartHeight-h, max(w-1, 1), h)
	}
	rate := float64(peak) / step.Seconds()
	svg := fmt.Sprintf(`<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="pages per second over time">`+
		`<g fill="#2f6fb0">%s</g><line x1="0" y1="%d" x2="%d" y2="%d" stroke="#999" stroke-width="1"/></svg>`,
		chartWidth, chartHeight+1, chartWidth, chartHeight+1, bars.String(), chartHeight, chartWidth, chartHeight)
	caption := fmt.Sprintf("Pages per second, by time of last fetch, %s to %s (one bar per %s; peak %.1f/s)",
		start.UTC().Format(timeLayout), last.UTC().Format(timeLayout), step, rate)
	return template.HTML(svg), caption // built only from numbers and fixed text
}
