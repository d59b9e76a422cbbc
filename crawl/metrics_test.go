package crawl_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/testweb"
)

// scrape serves reg as /metrics is served and parses the answer with Prometheus' own text
// parser, as a Prometheus server would.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, rec.Body)
	}
	return fams
}

// value returns the value of the metric in fams[name] whose labels include want; ok is false
// when there is none.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

// Issue 10, "Prometheus metrics of the crawler": after a crawl with a robots.txt, a 503 that
// pauses its origin (rule 23), pages answered 200, and an origin that refuses connections, the
// scrape counts each as it happened.
func TestMetricsScrapedAndParsed(t *testing.T) {
	vc := clock.NewVirtual(t0)
	sites := append(testweb.PagePaused(503, testweb.RetrySeconds), testweb.Site{Key: "down", Refused: true})
	web, err := testweb.Start(sites, testweb.Options{Now: vc.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	reg := prometheus.NewRegistry()
	stats, err := crawl.Run(context.Background(), crawl.Config{
		Seeds: web.Seeds(), Resolve: web.Resolve(), Clock: vc, Delay: crawl.NoDelay, MaxWait: 10 * time.Minute,
		Metrics: reg,
	})
	if err != nil {
		t.Fatal(err)
	}
	fams := scrape(t, reg)
	robotsOK, _ := value(fams, "mandelbot_requests_total", map[string]string{"kind": "robots", "class": "2xx"})
	pages2xx, _ := value(fams, "mandelbot_requests_total", map[string]string{"kind": "page", "class": "2xx"})
	pages5xx, _ := value(fams, "mandelbot_requests_total", map[string]string{"kind": "page", "class": "5xx"})
	refused, _ := value(fams, "mandelbot_request_errors_total", map[string]string{"kind": "robots", "error": "refused"})
	// Site a: / , /busy (503 then 200), /public; /private is disallowed.
	if robotsOK != 1 || pages2xx != 3 || pages5xx != 1 {
		t.Errorf("requests: robots 2xx %v, page 2xx %v, page 5xx %v; want 1, 3, 1", robotsOK, pages2xx, pages5xx)
	}
	if refused < 1 {
		t.Errorf("refused robots.txt requests: %v, want at least 1", refused)
	}
	// robots.txt outcomes: a's rules (rule 21: a 2xx is read as rules); the refused origin's
	// robots.txt is unreachable (rule 21: no answer means no request of the origin).
	rules, _ := value(fams, "mandelbot_robots_outcomes_total", map[string]string{"decision": "rules"})
	unreachable, _ := value(fams, "mandelbot_robots_outcomes_total", map[string]string{"decision": "unreachable"})
	if rules != 1 || unreachable != refused {
		t.Errorf("robots.txt outcomes: rules %v, unreachable %v; want 1 and one per refused robots.txt request (%v)", rules, unreachable, refused)
	}
	if n, _ := value(fams, "mandelbot_request_duration_seconds", map[string]string{"kind": "page"}); n != 4 {
		t.Errorf("page latency samples: %v, want 4", n)
	}
	if n, _ := value(fams, "mandelbot_response_body_bytes", map[string]string{"kind": "page"}); n != 4 {
		t.Errorf("page size samples: %v, want 4", n)
	}
	if n, _ := value(fams, "mandelbot_pauses_started_total", nil); n != 1 {
		t.Errorf("pauses started: %v, want 1", n)
	}
	if n, _ := value(fams, "mandelbot_pages_fetched_total", nil); n != float64(stats.Pages) {
		t.Errorf("pages fetched: %v, want the run's %d", n, stats.Pages)
	}
	if n, _ := value(fams, "mandelbot_urls_given_up_total", nil); n != float64(stats.Errors) {
		t.Errorf("given up: %v, want the run's %d", n, stats.Errors)
	}
	for _, name := range []string{"mandelbot_frontier_urls", "mandelbot_origins_paused_now", "mandelbot_index_lag_documents",
		"mandelbot_origins_unreachable_now", "go_goroutines", "go_memstats_heap_alloc_bytes"} {
		if _, ok := value(fams, name, nil); !ok {
			t.Errorf("%s missing from the scrape", name)
		}
	}
}

// issue 29 ("/metrics shows each share's use"): every consumer of the memory budget has its
// share, and the bodies, the Go heap and the frontier their use.
func TestMetricsShowTheMemoryShares(t *testing.T) {
	vc := clock.NewVirtual(t0)
	web, err := testweb.Start([]testweb.Site{{Key: "a", Pages: []testweb.Page{{Path: "/", Title: "Home"}}}}, testweb.Options{Now: vc.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	reg := prometheus.NewRegistry()
	if _, err := crawl.Run(context.Background(), crawl.Config{Seeds: web.Seeds(), Resolve: web.Resolve(), Clock: vc,
		Delay: crawl.NoDelay, Memory: 128 << 20, Metrics: reg}); err != nil {
		t.Fatal(err)
	}
	fams := scrape(t, reg)
	for consumer, want := range map[string]float64{"go_heap": 60 << 20, "bodies": 24 << 20, "connections": 18 << 20,
		"frontier": 6 << 20, "page_caches": 16 << 20, "reserve": 52 << 20} { // the reserve's 40 MiB are fixed
		if got, ok := value(fams, "mandelbot_memory_share_bytes", map[string]string{"consumer": consumer}); !ok || got != want {
			t.Errorf("share of %s: %v (%v), want %v", consumer, got, ok, want)
		}
	}
	if got, ok := value(fams, "mandelbot_memory_used_bytes", map[string]string{"consumer": "bodies"}); !ok || got != 0 {
		t.Errorf("bodies in use after the crawl: %v (%v), want 0", got, ok)
	}
	if got, ok := value(fams, "mandelbot_memory_used_bytes", map[string]string{"consumer": "go_heap"}); !ok || got <= 0 {
		t.Errorf("Go heap in use: %v (%v), want a positive figure", got, ok)
	}
	// The frontier knows the one URL it crawled (its known set), within its share.
	if got, ok := value(fams, "mandelbot_memory_used_bytes", map[string]string{"consumer": "frontier"}); !ok || got <= 0 || got > 6<<20 {
		t.Errorf("frontier in use: %v (%v), want a positive figure within its share", got, ok)
	}
}
