package crawl_test

import (
	"context"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/testweb"
)

// BenchmarkDocumentsJSONLines crawls a generated web of 2,000 and 10,000 pages writing every
// document as a JSON line (crawl --documents), and reports the peak live heap: the lines are
// streamed, so the peak must not grow with the number of documents written (issue 10, "in
// bounded memory"). Run with -benchtime=1x; it is not part of `go test`.
func BenchmarkDocumentsJSONLines(b *testing.B) {
	for _, pages := range []int{2_000, 10_000} {
		b.Run(strconv.Itoa(pages/1000)+"k", func(b *testing.B) {
			web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 10, PagesPerOrigin: pages / 10, LinksPerPage: 4,
				CrossPercent: -1, Seed: 1}), testweb.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer web.Close()
			for b.Loop() {
				var docs atomic.Int64
				out := crawl.NewJSONLines(io.Discard)
				peak, stop := heapPeak()
				stats, err := crawl.Run(context.Background(), crawl.Config{Seeds: web.Seeds(), Resolve: web.Resolve(), Delay: crawl.NoDelay,
					Concurrency: 16, StorePath: b.TempDir() + "/crawl.db",
					OnDocument: func(d crawl.Document) { docs.Add(1); out.Write(d) }})
				stop()
				if err != nil || out.Flush() != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(docs.Load()), "documents")
				b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(stats.Rate(), "pages/s")
			}
		})
	}
}

// heapPeak samples the live heap every 20 ms until stop is called.
func heapPeak() (*uint64, func()) {
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return &peak, func() { close(done); wg.Wait() }
}
