package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb/latencyweb"
)

// Issue 31, part 5: three real `mandelbot crawl` processes on one PostgreSQL store crawl a
// latency web (every answer held back 100 ms ± 50%, each origin on a loopback address of its
// own), with a lease batch small enough that origins pass from worker to worker. The servers'
// request log must show every promise of the cluster kept:
//   - robots.txt fetched once per origin (docs/robots-rules.md rule 20: the decision is cached in
//     the shared store) and before any page of its origin;
//   - never two requests in flight to one origin at once, whichever workers sent them, and at
//     least --delay between an origin's answer and its next request (rule 22), across lease
//     handovers;
//   - nothing robots.txt disallows requested, and every page fetched exactly once.
func TestClusterOfThreeOnALatencyWeb(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three crawl processes")
	}
	const (
		origins = 60
		pages   = 5
		workers = 3
		batch   = 12 // 3 x 12 < 60: workers hand origins back and lease others
		delay   = 300 * time.Millisecond
	)
	loc := pgStore(t)
	web, err := latencyweb.Start(latencyweb.Options{Origins: origins, Pages: pages, Latency: 100 * time.Millisecond, Jitter: 0.5, Seed: 31})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	start := time.Now()
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range workers {
		cmd := startWorker(t, loc, w, &outs[w], append([]string{"--allow-private", "--delay", delay.String(),
			"--lease-batch", fmt.Sprint(batch)}, web.Seeds()...)...)
		wg.Go(func() { errs[w] = cmd.Wait() })
	}
	wg.Wait()
	took := time.Since(start)
	for w, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w].String())
		}
	}
	g := web.Gate(delay)
	for _, p := range g.Problems() {
		t.Errorf("request log: %s", p)
	}
	if g.Robots != origins {
		t.Errorf("robots.txt fetched %d times over %d origins, want once each", g.Robots, origins)
	}
	for w := range workers {
		if g.ByAgent[clusterAgent(w)] == 0 {
			t.Errorf("worker %d sent no request: a lease batch of %d of %d origins should share the work", w, batch, origins)
		}
	}
	var by []string
	for w := range workers {
		by = append(by, fmt.Sprintf("worker %d: %d", w, g.ByAgent[clusterAgent(w)]))
	}
	t.Logf("%d pages in %v (%.0f pages/s; politeness limit %.0f pages/s, at least %v); shortest gap %v; requests %s",
		g.Pages, took.Round(time.Millisecond), float64(g.Pages)/took.Seconds(), web.Limit(delay), web.MinDuration(delay), g.ShortestGap, strings.Join(by, ", "))
	if t.Failed() {
		for w := range workers {
			t.Logf("worker %d output:\n%s", w, outs[w].String())
		}
	}
}
