package web

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// /metrics exposes the crawl's gauges, read from the store at scrape time.
func TestMetrics(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	resp, body := get(t, srv, "/metrics")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(body, "\n") {
		lines[l] = true
	}
	for _, want := range []string{
		"# TYPE mandelbot_urls gauge",
		`mandelbot_urls{state="fetched"} 4`,
		`mandelbot_urls{state="queued"} 2`,
		`mandelbot_urls{state="robots_disallowed"} 1`,
		`mandelbot_urls{state="robots_unreachable"} 0`,
		`mandelbot_urls{state="paused"} 0`,
		`mandelbot_urls{state="error"} 0`,
		`mandelbot_urls{state="out_of_scope"} 2`, // e.test's link and a.test's trap URL
		"# TYPE mandelbot_origins gauge",
		"mandelbot_origins 5",
		"# TYPE mandelbot_origins_paused gauge",
		"mandelbot_origins_paused 1", // rule 23: b.test; c.test's pause has ended
		"# TYPE mandelbot_origins_robots_unreachable gauge",
		"mandelbot_origins_robots_unreachable 1", // rule 21: b.test
	} {
		if !lines[want] {
			t.Errorf("exposition lacks %q\n%s", want, body)
		}
	}
	// Issue 10, item 6: what people read names no internal spec rule number.
	if m := regexp.MustCompile(`.*\brule \d+.*`).FindString(body); m != "" {
		t.Errorf("the exposition names an internal rule number: %q", m)
	}
	// A private registry: the default registry's own handler metrics do not leak in.
	if strings.Contains(body, "promhttp_") {
		t.Error("the exposition carries default-registry metrics")
	}
}

// Issue 27, part 5: /metrics carries the Go runtime and process collectors beside the store's
// gauges, as any Prometheus exporter does, so that memory and file descriptors can be watched.
func TestMetricsRuntimeAndProcess(t *testing.T) {
	srv := newSite(t, seedDashboard(t), nil)
	fams := scrape(t, srv)
	for _, name := range runtimeFamilies {
		if fams[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if fams["mandelbot_urls"] == nil {
		t.Error("/metrics lost the store's gauges")
	}
}

// runtimeFamilies are a few families of collectors.NewGoCollector and NewProcessCollector (the
// process ones exist on Linux, where the tests run).
var runtimeFamilies = []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "go_gc_duration_seconds",
	"process_resident_memory_bytes", "process_open_fds", "process_start_time_seconds"}

// Issue 27, part 5: a Gatherer that brings its own runtime collectors (the crawl's registry under
// `crawl --serve`) does not make the scrape fail with duplicate families: each family once.
func TestMetricsRuntimeWithGatherer(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	requests := prometheus.NewCounter(prometheus.CounterOpts{Name: "mandelbot_requests_total", Help: "Requests."})
	reg.MustRegister(requests)
	srv := newSite(t, seedDashboard(t), func(o *Options) { o.Gatherer = reg })
	fams := scrape(t, srv)
	for _, name := range append([]string{"mandelbot_requests_total", "mandelbot_urls"}, runtimeFamilies...) {
		if fams[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	// A Gatherer without them still gets them from the site.
	bare := prometheus.NewRegistry()
	bare.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "mandelbot_requests_total", Help: "Requests."}))
	fams = scrape(t, newSite(t, seedDashboard(t), func(o *Options) { o.Gatherer = bare }))
	for _, name := range append([]string{"mandelbot_requests_total"}, runtimeFamilies...) {
		if fams[name] == nil {
			t.Errorf("with a bare Gatherer, /metrics lacks %s", name)
		}
	}
}

// scrape GETs /metrics, requires a 200, and parses it with the Prometheus text parser, which
// refuses a family that appears twice.
func scrape(t *testing.T, srv *httptest.Server) map[string]*dto.MetricFamily {
	t.Helper()
	resp, body := get(t, srv, "/metrics")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: status %d\n%s", resp.StatusCode, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	return fams
}

// Time is an input: the same store scraped later shows the pause over.
func TestMetricsPauseEndsWithTheClock(t *testing.T) {
	st := seedDashboard(t)
	srv := newSite(t, st, func(o *Options) {
		o.Now = func() time.Time { return t0.Add(31 * time.Minute) }
	})
	_, body := get(t, srv, "/metrics")
	if !strings.Contains(body, "\nmandelbot_origins_paused 0\n") {
		t.Errorf("31 minutes later b.test's 30-minute pause is over:\n%s", body)
	}
}

// A store that cannot be read fails the scrape instead of reporting zeros.
func TestMetricsStoreFailure(t *testing.T) {
	srv := newSite(t, failing{newStore(t)}, nil)
	if resp, body := get(t, srv, "/metrics"); resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("status %d\n%s", resp.StatusCode, body)
	}
}
