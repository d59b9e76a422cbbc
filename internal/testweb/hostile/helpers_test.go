package hostile_test

import (
	"context"
	"net/url"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

const MiB = 1 << 20

// start serves a hostile origin for the test and returns its base URL.
func start(t *testing.T, opts hostile.Options) string {
	t.Helper()
	base, stop, err := hostile.Serve(hostile.NewHandler(opts))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return base
}

// client is a fetch client for loopback with opts.
func client(t *testing.T, opts fetch.Options) *fetch.Client {
	t.Helper()
	opts.AllowPrivate = true
	c, err := fetch.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// heapSampler samples the heap (live and not yet swept objects, runtime/metrics) every
// millisecond while a test runs, so a test can assert the most memory its subject held at
// any moment, not only at the end.
type heapSampler struct {
	base, peak uint64
	stop, done chan struct{}
	started    time.Time
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleHeap collects garbage, takes the baseline and starts sampling.
func sampleHeap(t *testing.T) *heapSampler {
	t.Helper()
	runtime.GC()
	h := &heapSampler{base: heapNow(), stop: make(chan struct{}), done: make(chan struct{}), started: time.Now()}
	h.peak = h.base
	go func() {
		defer close(h.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			h.peak = max(h.peak, heapNow())
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(h.end)
	return h
}

func (h *heapSampler) end() {
	select {
	case <-h.stop:
	default:
		close(h.stop)
	}
	<-h.done
}

// check stops sampling and fails the test if the heap grew more than maxGrowth over its
// baseline or the test took longer than maxTime; it logs both figures.
func (h *heapSampler) check(t *testing.T, maxGrowth uint64, maxTime time.Duration) {
	t.Helper()
	h.end()
	h.peak = max(h.peak, heapNow())
	growth, took := h.peak-min(h.base, h.peak), time.Since(h.started)
	t.Logf("peak heap growth %.1f MiB (limit %d MiB), %v (limit %v)", float64(growth)/MiB, maxGrowth/MiB, took.Round(time.Millisecond), maxTime)
	if growth > maxGrowth {
		t.Errorf("peak heap grew by %.1f MiB, more than %d MiB", float64(growth)/MiB, maxGrowth/MiB)
	}
	if took > maxTime {
		t.Errorf("took %v, more than %v", took, maxTime)
	}
}

func get(t *testing.T, c *fetch.Client, u string) (*fetch.Response, error) {
	t.Helper()
	return c.Get(context.Background(), fetch.Request{URL: u})
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
