package crawl

import (
	"context"
	"errors"
	"io"
	"net/url"
	rtmetrics "runtime/metrics"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/fetch"
)

// Bucket bounds of the request histograms.
var (
	latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	sizeBuckets    = prometheus.ExponentialBuckets(256, 4, 10) // 256 B to 64 MiB
)

// metrics are the Prometheus metrics of one crawl: request figures recorded by a Fetcher
// decorator as requests complete, and crawl figures copied from progress snapshots. It is safe
// for concurrent use.
type metrics struct {
	now      func() time.Time
	requests *prometheus.CounterVec   // kind, class
	errors   *prometheus.CounterVec   // kind, error
	latency  *prometheus.HistogramVec // kind
	size     *prometheus.HistogramVec // kind
	robots   *prometheus.CounterVec   // decision

	pages, pauses, givenUp, disallowed prometheus.Counter
	queued, inFlight, origins          prometheus.Gauge
	paused, unreachable, indexLag      prometheus.Gauge
	frontierUsed                       prometheus.Gauge // the frontier's use of its memory share

	mu   sync.Mutex
	last Stats // the previous snapshot, for the counters' increments
}

func newMetrics(reg prometheus.Registerer, clk Clock, mem budget.Shares, bodies *budget.Budget) (*metrics, error) {
	m := &metrics{now: time.Now}
	if clk != nil {
		m.now = clk.Now
	}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mandelbot_requests_total",
		Help: "Requests that got an answer, by kind (robots: a robots.txt; page: a page or sitemap) and status class (2xx, 3xx, 4xx, 5xx)."},
		[]string{"kind", "class"})
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mandelbot_request_errors_total",
		Help: "Requests that got no usable answer, by kind and error kind (timeout, refused, reset, dns, tls, ...)."},
		[]string{"kind", "error"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mandelbot_request_duration_seconds",
		Help: "Time from sending a request to the end of its body, by kind.", Buckets: latencyBuckets}, []string{"kind"})
	m.size = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mandelbot_response_body_bytes",
		Help: "Size of answered bodies after content decoding, as kept (up to the size limit), by kind.", Buckets: sizeBuckets}, []string{"kind"})
	m.robots = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mandelbot_robots_outcomes_total",
		Help: "robots.txt fetches by the decision they led to (rules, allow_all, unreachable, not_modified)."},
		[]string{"decision"})
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	}
	gauge := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	}
	m.pages = counter("mandelbot_pages_fetched_total", "Page and sitemap requests answered (not counting 503 and 429).")
	m.pauses = counter("mandelbot_pauses_started_total", "503 and 429 answers, each of which paused its origin.")
	m.givenUp = counter("mandelbot_urls_given_up_total", "URLs given up after their tries got no answer.")
	m.disallowed = counter("mandelbot_urls_disallowed_total", "URLs robots.txt kept the crawl from requesting.")
	m.queued = gauge("mandelbot_frontier_urls", "URLs waiting in the crawl's frontier.")
	m.inFlight = gauge("mandelbot_requests_in_flight", "Requests in flight.")
	m.origins = gauge("mandelbot_frontier_origins", "Origins the crawl is working on.")
	m.paused = gauge("mandelbot_origins_paused_now", "Origins paused now by a 503 or 429 answer.")
	m.unreachable = gauge("mandelbot_origins_unreachable_now", "Origins whose robots.txt cannot be read, with no good copy: nothing on them is requested.")
	m.indexLag = gauge("mandelbot_index_lag_documents", "Saved documents not yet searchable.")
	m.frontierUsed = prometheus.NewGauge(usedOpts(budget.Frontier))
	cs := []prometheus.Collector{m.requests, m.errors, m.latency, m.size, m.robots, m.pages, m.pauses, m.givenUp, m.disallowed,
		m.queued, m.inFlight, m.origins, m.paused, m.unreachable, m.indexLag, m.frontierUsed}
	cs = append(cs, memoryMetrics(mem, bodies)...)
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	// The Go runtime and process metrics, unless the registry has them already (the default
	// registry does).
	for _, c := range []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		var are prometheus.AlreadyRegisteredError
		if err := reg.Register(c); err != nil && !errors.As(err, &are) {
			return nil, err
		}
	}
	return m, nil
}

// memoryMetrics are the memory budget's shares (issue 29: /metrics shows each share's use), one
// series per consumer, and the use of those whose use is known: the bodies charged to the fetch
// client's budget now, and the Go runtime's memory as its soft limit counts it.
func memoryMetrics(mem budget.Shares, bodies *budget.Budget) []prometheus.Collector {
	share := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "mandelbot_memory_share_bytes",
		Help: "The crawl's memory budget (--memory) as divided among its consumers: each consumer's share."}, []string{"consumer"})
	for _, c := range budget.Consumers {
		share.WithLabelValues(string(c)).Set(float64(mem.Of(c)))
	}
	used := func(c budget.Consumer, fn func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(usedOpts(c), fn)
	}
	cs := []prometheus.Collector{share, used(budget.GoHeap, goMemory)}
	if bodies != nil {
		cs = append(cs, used(budget.Bodies, func() float64 { return float64(bodies.Used()) }))
	}
	return cs
}

// usedOpts describes the series of consumer c's use of the memory budget.
func usedOpts(c budget.Consumer) prometheus.GaugeOpts {
	return prometheus.GaugeOpts{Name: "mandelbot_memory_used_bytes",
		Help:        "What a consumer of the memory budget holds now (bodies: charged to the body budget; go_heap: the Go runtime's memory, less what it returned to the system; frontier: its queues and known sets, as of the last progress snapshot).",
		ConstLabels: prometheus.Labels{"consumer": string(c)}}
}

// goMemory is the Go runtime's memory as its soft limit counts it: everything it mapped, less
// what it returned to the system.
func goMemory() float64 {
	s := []rtmetrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	rtmetrics.Read(s)
	return float64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// wrap returns a Fetcher that records every request of next.
func (m *metrics) wrap(next crawler.Fetcher) crawler.Fetcher { return measured{next: next, m: m} }

type measured struct {
	next crawler.Fetcher
	m    *metrics
}

func (f measured) Get(ctx context.Context, req fetch.Request) (*fetch.Response, error) {
	start := f.m.now()
	resp, err := f.next.Get(ctx, req)
	size := 0
	if resp != nil {
		size = len(resp.Body)
	}
	f.m.record(ctx, req, start, resp, size, err)
	return resp, err
}

// Stream records a streamed request (a sitemap) as Get does, its size being what consume read.
func (f measured) Stream(ctx context.Context, req fetch.Request, consume func(*fetch.Response, io.Reader) error) (*fetch.Response, error) {
	start := f.m.now()
	var n countingReader
	resp, err := f.next.Stream(ctx, req, func(resp *fetch.Response, body io.Reader) error {
		n.r = body
		return consume(resp, &n)
	})
	f.m.record(ctx, req, start, resp, n.n, err)
	return resp, err
}

// record counts one request: an answer by status class with its size, or an error by kind.
func (m *metrics) record(ctx context.Context, req fetch.Request, start time.Time, resp *fetch.Response, size int, err error) {
	kind := requestKind(req.URL)
	m.latency.WithLabelValues(kind).Observe(m.now().Sub(start).Seconds())
	switch {
	case err != nil && (resp == nil || fetch.Classify(err) != fetch.KindDecode):
		if ctx.Err() == nil { // the run stopping is not the server's failure
			m.errors.WithLabelValues(kind, fetch.Classify(err).String()).Inc()
		}
	default:
		m.requests.WithLabelValues(kind, statusClass(resp.Status)).Inc()
		m.size.WithLabelValues(kind).Observe(float64(size))
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// requestKind tells robots.txt requests from the rest: the crawler asks ORIGIN/robots.txt.
func requestKind(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Path == "/robots.txt" && u.RawQuery == "" {
		return "robots"
	}
	return "page"
}

func statusClass(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code/100) + "xx"
}

// observe copies a progress snapshot into the crawl figures.
func (m *metrics) observe(s Stats) {
	m.mu.Lock()
	defer m.mu.Unlock()
	add := func(c prometheus.Counter, now, before int) {
		if now > before {
			c.Add(float64(now - before))
		}
	}
	add(m.pages, s.Pages, m.last.Pages)
	add(m.pauses, s.Paused, m.last.Paused)
	add(m.givenUp, s.Errors, m.last.Errors)
	add(m.disallowed, s.Disallowed, m.last.Disallowed)
	for k := range RobotsOutcome(NumRobotsOutcomes) {
		add(m.robots.WithLabelValues(k.String()), s.RobotsOutcomes[k], m.last.RobotsOutcomes[k])
	}
	m.last = s
	m.queued.Set(float64(s.Queued))
	m.inFlight.Set(float64(s.InFlight))
	m.origins.Set(float64(s.Origins))
	m.paused.Set(float64(s.OriginsPaused))
	m.unreachable.Set(float64(s.OriginsBlocked))
	m.indexLag.Set(float64(s.IndexLag))
	m.frontierUsed.Set(float64(s.Frontier.Used))
}
