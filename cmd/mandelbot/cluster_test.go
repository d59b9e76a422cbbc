package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/testweb"
)

// clusterAgent is the User-Agent of cluster worker w, so that the request log tells the
// workers apart.
func clusterAgent(w int) string { return fmt.Sprintf("Mandelbot-cluster-test/worker-%d", w) }

// startClusterWorker starts `mandelbot crawl` (this test binary run as the command) on the
// shared store loc as worker w, crawling web's seeds, its output going to out.
func startClusterWorker(t *testing.T, loc string, web *testweb.Web, w int, out *bytes.Buffer, flags ...string) *exec.Cmd {
	t.Helper()
	return startWorker(t, loc, w, out, slices.Concat(flags, resolveArgs(web), web.Seeds())...)
}

// startWorker starts `mandelbot crawl` on the shared store loc as worker w with the rest of
// its arguments (flags and seeds), its output going to out; the test kills it at its end.
func startWorker(t *testing.T, loc string, w int, out *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	args = append([]string{"crawl", "--store", loc, "--user-agent", clusterAgent(w)}, args...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envRunMain+"=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd
}

// requestsPerWorker counts the logged requests by worker, for the test's log.
func requestsPerWorker(web *testweb.Web) map[string]int {
	sentBy := map[string]int{}
	for _, r := range web.Requests() {
		sentBy[strings.TrimPrefix(r.Header.Get("User-Agent"), "Mandelbot-cluster-test/")]++
	}
	return sentBy
}

func formatCounts(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%s: %d", k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// generatedPages lists the paths of a generated site with n pages ("/" and /p/1.. /p/n-1).
func generatedPages(n int) []string {
	paths := []string{"/"}
	for i := 1; i < n; i++ {
		paths = append(paths, fmt.Sprintf("/p/%d", i))
	}
	return paths
}

// Cluster test of issue 12: three real `mandelbot crawl` processes (this test binary run as the
// command) crawl one testweb of clusterOrigins origins into one PostgreSQL schema at once, each
// holding at most --lease-batch origins, so that all three take part. One origin answers 503
// with Retry-After once. The servers' request log must show the promises of the spec kept
// across processes:
//   - robots.txt fetched exactly once per origin (docs/robots-rules.md rule 20: the decision is
//     cached, and the cache is the shared store);
//   - between any two requests to one origin, whichever processes sent them, at least --delay
//     (rule 22's per-origin politeness, with --per-origin 1: answers take a few milliseconds, so
//     arrivals --delay apart are never two requests in flight at once);
//   - the 503 pauses its origin for every worker until the pause ends (rule 23: no request to
//     it from any worker before Retry-After has passed);
//   - every page of every origin fetched exactly once (the 503 page twice), by all three
//     workers together.
func TestClusterOfThreeKeepsPerOriginPromises(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three crawl processes")
	}
	const (
		clusterOrigins = 50
		pages          = 6
		workers        = 3
		batch          = 8 // 3 x 8 < 50: workers release origins and lease others
		delay          = 200 * time.Millisecond
		// arrivalSlack is how much closer than --delay two arrivals may be logged: the time a
		// request spends between the crawler's clock and the server's log.
		arrivalSlack = 15 * time.Millisecond
		retryAfter   = 2 // seconds, asked by the 503
	)
	loc := pgStore(t)
	busy := testweb.GenKey(7)
	sites := testweb.AddPages(testweb.Generate(testweb.GenOptions{Origins: clusterOrigins, PagesPerOrigin: pages, LinksPerPage: 3, Seed: 12}),
		map[string][]testweb.Page{busy: {{Path: "/p/1", Title: "Busy", Text: "come back later",
			Links:  []string{"/p/2", "/p/3", "/p/4", "/p/5"},
			Script: []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(retryAfter)}, {}}}}})
	web, err := testweb.Start(sites, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range workers {
		cmd := startClusterWorker(t, loc, web, w, &outs[w], "--delay", delay.String(), "--per-origin", "1",
			"--concurrency", "8", "--lease-batch", fmt.Sprint(batch))
		wg.Go(func() { errs[w] = cmd.Wait() })
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w].String())
		}
	}

	byKey := map[string][]testweb.Request{}
	for _, r := range web.Requests() {
		byKey[r.Key] = append(byKey[r.Key], r)
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
		for _, p := range generatedPages(pages) {
			if n := web.Count(key, p); n == 0 {
				t.Errorf("%s%s was never fetched", key, p)
			} else if n > 1 && (key != busy || p != "/p/1") {
				t.Errorf("%s%s was fetched %d times: no worker died, so every page is fetched once", key, p, n)
			}
		}
	}
	if n := web.Count(busy, "/p/1"); n != 2 {
		t.Errorf("%s/p/1 (503 once) requested %d times, want 2 (the 503, then the probe)", busy, n)
	}
	for _, r := range web.DuringPause(pause.DefaultFirstBackoff, 0) {
		t.Errorf("rule 23: %s by %s arrived during its origin's pause", r, r.Header.Get("User-Agent"))
	}
	sentBy := requestsPerWorker(web)
	for w := range workers {
		if sentBy[strings.TrimPrefix(clusterAgent(w), "Mandelbot-cluster-test/")] == 0 {
			t.Errorf("worker %d sent no request: the lease batch (%d of %d origins) should share the work", w, batch, clusterOrigins)
		}
	}
	t.Logf("requests per worker: %s", formatCounts(sentBy))
	if t.Failed() {
		for w := range workers {
			t.Logf("worker %d output:\n%s", w, outs[w].String())
		}
	}
}

// Issue 12: kill -9 of one of three workers mid-crawl, with --lease-ttl 3s. The other two take
// over its origins once its leases expire (they do not end while its origins have due URLs:
// store.Shared.NextDue), and the final export shows every reachable page fetched: no URL lost.
// No page is requested more than once beyond the write-path bound (crawler.MaxRepeatedAfterKill
// of the killed worker's concurrency: its requests in flight and its unsaved commit groups).
func TestClusterSurvivesKill9OfAWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three crawl processes")
	}
	const (
		clusterOrigins = 30
		pages          = 12
		workers        = 3
		concurrency    = 6
		killAfter      = 40 // requests of worker 0 before the kill
	)
	loc := pgStore(t)
	victim := clusterAgent(0)
	var (
		mu      sync.Mutex
		count   int
		reached = make(chan struct{})
	)
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: clusterOrigins, PagesPerOrigin: pages, LinksPerPage: 3, Seed: 21}),
		testweb.Options{OnRequest: func(r testweb.Request) {
			if r.Header.Get("User-Agent") != victim {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if count++; count == killAfter {
				close(reached)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	flags := []string{"--delay", "50ms", "--per-origin", "1", "--concurrency", fmt.Sprint(concurrency),
		"--lease-batch", "6", "--lease-ttl", "3s"}
	outs := make([]bytes.Buffer, workers)
	cmds := make([]*exec.Cmd, workers)
	for w := range workers {
		cmds[w] = startClusterWorker(t, loc, web, w, &outs[w], flags...)
	}
	select {
	case <-reached:
	case <-time.After(60 * time.Second):
		t.Fatalf("worker 0 never made %d requests:\n%s", killAfter, outs[0].String())
	}
	if err := cmds[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killedAt := len(web.Requests())
	err = cmds[0].Wait()
	if ws, ok := cmds[0].ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("worker 0 was not killed (it may have finished first: raise the web size): %v\n%s", err, outs[0].String())
	}
	for w := 1; w < workers; w++ {
		if err := cmds[w].Wait(); err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w].String())
		}
	}
	afterKill := requestsPerWorker(web)

	code, out, errOut := runCLI(t, "", "export", "--store", loc)
	if code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	state := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct{ URL, State string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		state[row.URL] = row.State
	}
	for _, key := range web.Keys() {
		for _, p := range generatedPages(pages) {
			if u := web.URL(key, p); state[u] != "fetched" {
				t.Errorf("%s is %q in the export, want fetched: the killed worker's URL was lost", u, state[u])
			}
		}
	}
	repeats := 0
	seen := map[string]bool{}
	for _, r := range web.Requests() {
		if r.Path == testweb.RobotsPath {
			continue // a robots.txt decision unsaved at the kill is fetched again, like a page
		}
		if u := web.URL(r.Key, r.Path); seen[u] {
			repeats++
		} else {
			seen[u] = true
		}
	}
	if bound := crawler.MaxRepeatedAfterKill(concurrency); repeats > bound {
		t.Errorf("%d page requests repeated, more than the write-path bound %d", repeats, bound)
	}
	t.Logf("killed worker 0 after %d requests of the web; requests per worker: %s; %d pages repeated (bound %d)",
		killedAt, formatCounts(afterKill), repeats, crawler.MaxRepeatedAfterKill(concurrency))
	if afterKill[strings.TrimPrefix(clusterAgent(1), "Mandelbot-cluster-test/")]+afterKill[strings.TrimPrefix(clusterAgent(2), "Mandelbot-cluster-test/")] == 0 {
		t.Errorf("the surviving workers sent nothing")
	}
	if t.Failed() {
		for w := range workers {
			t.Logf("worker %d output:\n%s", w, outs[w].String())
		}
	}
}
