package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"

	"github.com/fractle/mandelbot/internal/store"
)

// collector reads the crawl's figures from the store on every scrape, so /metrics is always
// current and holds no state of its own. It is safe for concurrent scrapes. Each scrape costs
// one Counts query and one walk of the origins.
type collector struct {
	store   store.Store
	now     func() time.Time
	timeout time.Duration

	urls, origins, paused, unreachable *prometheus.Desc
}

func newCollector(st store.Store, now func() time.Time, timeout time.Duration) *collector {
	return &collector{
		store: st, now: now, timeout: timeout,
		urls: prometheus.NewDesc("mandelbot_urls", "URLs known to the crawl, by state.",
			[]string{"state"}, nil),
		origins: prometheus.NewDesc("mandelbot_origins", "Origins known to the crawl.", nil, nil),
		paused: prometheus.NewDesc("mandelbot_origins_paused",
			"Origins paused by a 503 or 429 answer at the time of the scrape: nothing is requested from them until the pause ends.", nil, nil),
		unreachable: prometheus.NewDesc("mandelbot_origins_robots_unreachable",
			"Origins whose robots.txt could not be read, so nothing on them is crawled until it can be.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.urls
	ch <- c.origins
	ch <- c.paused
	ch <- c.unreachable
}

// Collect implements prometheus.Collector. A store error is reported as an invalid metric, which
// makes the scrape fail visibly instead of showing zeros.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	// Gather gives no context; the scrape is bounded by the site's request timeout instead.
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	counts, err := c.store.Counts(ctx, c.now())
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.urls, fmt.Errorf("metrics: %w", err))
		return
	}
	for _, st := range states {
		ch <- prometheus.MustNewConstMetric(c.urls, prometheus.GaugeValue, float64(counts[st.State]), string(st.State))
	}
	now := c.now()
	var origins, pausedN, unreachable int
	err = c.store.EachOrigin(ctx, func(o store.Origin) error {
		origins++
		if paused(o, now) {
			pausedN++
		}
		if robotsUnreachable(o) {
			unreachable++
		}
		return nil
	})
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.origins, fmt.Errorf("metrics: %w", err))
		return
	}
	ch <- prometheus.MustNewConstMetric(c.origins, prometheus.GaugeValue, float64(origins))
	ch <- prometheus.MustNewConstMetric(c.paused, prometheus.GaugeValue, float64(pausedN))
	ch <- prometheus.MustNewConstMetric(c.unreachable, prometheus.GaugeValue, float64(unreachable))
}

// newRuntimeRegistry holds the Go runtime and process collectors that /metrics carries beside
// the store's gauges (issue 27).
func newRuntimeRegistry() (*prometheus.Registry, error) {
	rt := prometheus.NewRegistry()
	for _, c := range []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := rt.Register(c); err != nil {
			return nil, fmt.Errorf("web: register runtime metrics: %w", err)
		}
	}
	return rt, nil
}

// withRuntime gathers main, then adds the runtime families main does not already have: a
// Gatherer given in Options (the crawl's registry under `crawl --serve`) may bring its own Go
// and process collectors, and a family must appear once in an exposition. Families of main
// that clash with each other are still an error, as prometheus.Gatherers reports them.
type withRuntime struct {
	main, runtime prometheus.Gatherer
}

// Gather implements prometheus.Gatherer; like prometheus.Gatherers, it returns what it could
// gather beside any error.
func (g withRuntime) Gather() ([]*dto.MetricFamily, error) {
	fams, err := g.main.Gather()
	rt, rerr := g.runtime.Gather()
	have := make(map[string]bool, len(fams))
	for _, f := range fams {
		have[f.GetName()] = true
	}
	for _, f := range rt {
		if !have[f.GetName()] {
			fams = append(fams, f)
		}
	}
	slices.SortFunc(fams, func(a, b *dto.MetricFamily) int { return strings.Compare(a.GetName(), b.GetName()) })
	return fams, errors.Join(err, rerr)
}
