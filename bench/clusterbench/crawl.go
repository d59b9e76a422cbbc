package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// counter counts the web's requests, pages and robots.txt apart, and remembers when the last
// one arrived (Unix nanoseconds).
type counter struct{ pages, robots, last atomic.Int64 }

func (c *counter) onRequest(r testweb.Request) {
	if r.Path == testweb.RobotsPath {
		c.robots.Add(1)
	} else {
		c.pages.Add(1)
	}
	c.last.Store(time.Now().UnixNano())
}

// result is one measured crawl: n processes on one store until each ends.
type result struct {
	workers   int
	pages     int64 // page requests the web answered
	robots    int64
	wall      time.Duration // first start to last exit
	requests  time.Duration // first start to the last request's arrival: the crawl without the index catch-up at its end
	cpu       time.Duration // the crawl processes' user+system CPU
	serverCPU time.Duration // the PostgreSQL server's (all its processes), -1 unknown
}

func (r result) pagesPerSec() float64 { return float64(r.pages) / r.wall.Seconds() }

// requestRate is pages per second until the last request: the crawl without the index catch-up
// each process waits for before it exits.
func (r result) requestRate() float64 { return float64(r.pages) / r.requests.Seconds() }

func (r result) cpuPerPage(d time.Duration) float64 {
	if d < 0 || r.pages == 0 {
		return -1
	}
	return float64(d.Microseconds()) / float64(r.pages)
}

// crawl runs n `mandelbot crawl` processes at once, each with storeArgs, on web, and measures
// them. Every process must end with "nothing left to crawl".
func crawl(ctx context.Context, bin string, web *testweb.Web, cnt *counter, n int, storeArgs []string, delay time.Duration, concurrency int) (result, error) {
	res := result{workers: n}
	args := append([]string{"crawl"}, storeArgs...)
	args = append(args, "--delay", delay.String(), "--concurrency", fmt.Sprint(concurrency), "--max-wait", "1m")
	for _, r := range web.Resolve() {
		args = append(args, "--resolve", r)
	}
	args = append(args, web.Seeds()...)
	p0, r0 := cnt.pages.Load(), cnt.robots.Load()
	s0, sok := host.PostgresCPU()
	start := time.Now()
	cmds := make([]*exec.Cmd, n)
	outs := make([]bytes.Buffer, n)
	for i := range n {
		cmds[i] = exec.CommandContext(ctx, bin, args...)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			return res, err
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cmds {
		wg.Go(func() { errs[i] = c.Wait() })
	}
	wg.Wait()
	res.wall = time.Since(start)
	res.requests = time.Unix(0, cnt.last.Load()).Sub(start)
	s1, sok1 := host.PostgresCPU()
	for i, c := range cmds {
		if errs[i] != nil {
			return res, fmt.Errorf("worker %d: %w\n%s", i, errs[i], spawn.LastLines(outs[i].String(), 20))
		}
		if stop, _ := mandelbotcli.SummaryLines(outs[i].String()); stop != mandelbotcli.FinishedReason {
			return res, fmt.Errorf("worker %d ended with %q, want %q", i, stop, mandelbotcli.FinishedReason)
		}
		res.cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	res.pages, res.robots = cnt.pages.Load()-p0, cnt.robots.Load()-r0
	res.serverCPU = -1
	if sok && sok1 {
		res.serverCPU = s1 - s0
	}
	return res, nil
}
