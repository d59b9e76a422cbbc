package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// Cluster test of issue 12: three real `mandelbot crawl` processes (this test binary run as the
// command) crawl one testweb of clusterOrigins origins into one PostgreSQL schema at once. The
// servers' request log must show the promises of the spec kept across processes:
//   - robots.txt fetched exactly once per origin (robots-semantics.md rule 20: the decision is
//     cached, and the cache is the shared store);
//   - between any two requests to one origin, whichever processes sent them, at least --delay
//     (rule 22's per-origin politeness, with --per-origin 1: answers take a few milliseconds, so
//     arrivals --delay apart are never two requests in flight at once);
//   - every page of every origin fetched.
func TestClusterOfThreeKeepsPerOriginPromises(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three crawl processes")
	}
	const (
		clusterOrigins = 50
		pages          = 6
		workers        = 3
		delay          = 200 * time.Millisecond
		// arrivalSlack is how much closer than --delay two arrivals may be logged: the time a
		// request spends between the crawler's clock and the server's log.
		arrivalSlack = 15 * time.Millisecond
	)
	loc := pgStore(t)
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: clusterOrigins, PagesPerOrigin: pages, LinksPerPage: 3, Seed: 12}), testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range workers {
		args := append([]string{"crawl", "--store", loc, "--delay", delay.String(), "--per-origin", "1",
			"--concurrency", "8", "--user-agent", fmt.Sprintf("Mandelbot-cluster-test/worker-%d", w)}, resolveArgs(web)...)
		cmd := exec.Command(os.Args[0], append(args, web.Seeds()...)...)
		cmd.Env = append(os.Environ(), envRunMain+"=1")
		cmd.Stdout, cmd.Stderr = &outs[w], &outs[w]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { errs[w] = cmd.Wait() })
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w].String())
		}
	}

	byKey := map[string][]testweb.Request{}
	sentBy := map[string]int{}
	for _, r := range web.Requests() {
		byKey[r.Key] = append(byKey[r.Key], r)
		sentBy[r.Header.Get("User-Agent")]++
	}
	for _, key := range web.Keys() {
		if n := web.Count(key, testweb.RobotsPath); n != 1 {
			t.Errorf("%s: robots.txt fetched %d times by the cluster, want 1", key, n)
		}
		rs := byKey[key]
		for i := 1; i < len(rs); i++ {
			if gap := rs[i].At.Sub(rs[i-1].At); gap < delay-arrivalSlack {
				t.Errorf("%s: %s (%s) came %v after %s (%s), less than --delay %v",
					key, rs[i].Path, rs[i].Header.Get("User-Agent"), gap, rs[i-1].Path, rs[i-1].Header.Get("User-Agent"), delay)
			}
		}
		for i := range pages {
			p := "/"
			if i > 0 {
				p = fmt.Sprintf("/p/%d", i)
			}
			if web.Count(key, p) == 0 {
				t.Errorf("%s%s was never fetched", key, p)
			}
		}
	}
	agents := make([]string, 0, len(sentBy))
	for a, n := range sentBy {
		agents = append(agents, fmt.Sprintf("%s: %d", strings.TrimPrefix(a, "Mandelbot-cluster-test/"), n))
	}
	slices.Sort(agents)
	t.Logf("requests per worker: %s", strings.Join(agents, ", "))
	if t.Failed() {
		for w := range workers {
			t.Logf("worker %d output:\n%s", w, outs[w].String())
		}
	}
}
