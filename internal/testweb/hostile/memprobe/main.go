// Command memprobe measures the peak RSS of one process fetching 16 page bombs and 16 sitemap
// bombs at once from a hostile origin it serves itself (issue 9). Its one argument picks the
// mode, words joined by "-": "unbounded" (a budget of 1 TiB: no bound, as before the budget)
// or "budget" (the default 128 MiB); "get" buffers sitemaps, "stream" streams them into
// sitemap.Parse; "memlimit" sets a 192 MiB soft memory limit for the runtime. It prints
// VmHWM (peak RSS), the budget's peak and the time taken:
//
//	go run ./internal/testweb/hostile/memprobe budget-stream
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
	"github.com/fractle/mandelbot/sitemap"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: memprobe unbounded-get|budget-get|budget-stream|budget-stream-memlimit")
		os.Exit(2)
	}
	mode := os.Args[1]
	base, stop, _ := hostile.Serve(hostile.NewHandler(hostile.Options{}))
	defer stop()
	size := int64(fetch.DefaultMaxBufferedBytes)
	if strings.Contains(mode, "unbounded") {
		size = 1 << 40
	}
	if strings.Contains(mode, "memlimit") {
		debug.SetMemoryLimit(192 << 20)
	}
	b := budget.New(size)
	c, _ := fetch.New(fetch.Options{AllowPrivate: true, Budget: b})
	// warm the bombs
	for _, p := range []string{hostile.PathGzipBomb, hostile.PathBrotliBomb, hostile.PathZstdBomb, hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb} {
		r, _ := c.Get(context.Background(), fetch.Request{URL: base + p, MaxDecodedBytes: 1})
		r.Release()
	}
	pages := []string{hostile.PathGzipBomb, hostile.PathBrotliBomb, hostile.PathZstdBomb}
	maps := []string{hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			r, err := c.Get(context.Background(), fetch.Request{URL: base + pages[i%3]})
			if err != nil {
				fmt.Println(err)
			}
			r.Release()
		})
		wg.Go(func() {
			u := base + maps[i%3]
			if strings.Contains(mode, "stream") {
				c.Stream(context.Background(), fetch.Request{URL: u, MaxDecodedBytes: 50 << 20}, func(_ *fetch.Response, body io.Reader) error {
					sitemap.Parse(body, sitemap.Options{}, func(sitemap.Entry) error { return nil })
					return nil
				})
				return
			}
			r, err := c.Get(context.Background(), fetch.Request{URL: u, MaxDecodedBytes: 50 << 20})
			if err != nil {
				fmt.Println(err)
			}
			sitemap.Parse(bytes.NewReader(r.Body), sitemap.Options{}, func(sitemap.Entry) error { return nil })
			r.Release()
		})
	}
	wg.Wait()
	st, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(st), "\n") {
		if strings.HasPrefix(l, "VmHWM") {
			fmt.Printf("%s: %s, budget peak %d MiB, %v\n", mode, strings.TrimSpace(l), b.Peak()>>20, time.Since(start).Round(time.Millisecond))
		}
	}
}
