package crawler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// hostileMemoryBound is issue 9's promise, "peak RSS stays under 256 MiB by default whatever the
// web does", checked on the peak heap growth and on the peak RSS of the test process. The bound
// is the promise itself, not a figure with headroom, and its margin is thin by the product's
// settings, not by the test's. Measured for issue 30 on 2026-11-27 at load 14-19, main f6dde4e
// (`go test -c`, then `-test.run 'TestHostileWebBesideANormalSite$' -test.v`):
//
//   - peak RSS 243, 246, 249, 253, 255 and 259 MiB in six runs, the last at load 16 over the
//     bound (207-258 MiB on 2026-11-26: bench/history.md, "The hostile web's memory");
//   - the Go runtime's memory peaks at the soft memory limit the command sets and this test sets
//     too (192 MiB, cmd/mandelbot: defaultMemoryLimit): 192-202 MiB, as a loaded machine's
//     collector overshoots a soft limit; the heap's objects grow by 163-189 MiB;
//   - the other 51-60 MiB are outside the Go heap, where the soft limit does not reach: the
//     SQLite engine's own allocations (the page caches of the three writers and the readers,
//     FTS5's pending terms) and the mapped binary;
//   - before the crawl the test process holds 42-45 MiB (the hostile servers with their bombs, the
//     test binary, the store), a `mandelbot crawl` process about 26 MiB (its peak RSS for a
//     one-request crawl, /usr/bin/time -v); how much of that difference the soft limit covers was not
//     measured.
//
// So at that load the product keeps its promise by 1-13 MiB, and missed it once by 3 MiB: this
// test fails then, rightly. Headroom can only come from the product (a lower soft limit or body
// budget, less memory outside the Go heap: issue 29), not from a looser bound here; a failure
// names the Go runtime's peak so that it shows which side grew.
//
// Since issue 29 the bound is the default memory budget (--memory, budget.DefaultMemory), and the
// crawl runs with that budget's shares as the command gives them: the Go limit (160 MiB), the
// body budget (64 MiB) and limits, and the page caches of the store (32 MiB). Measured on
// 2026-11-27 at load 3.3-4.8 (same binary build, five runs): peak RSS 199, 199, 203, 205 and 211
// MiB, the Go runtime's peak 149-160 MiB; main before it (be0b340), alternated with it at load
// 4.1-7.5: 245, 251, 252 MiB.
const hostileMemoryBound = budget.DefaultMemory

// issue 9 ("what it must show"): a crawl of the whole hostile web (hostile.Sites: every hostile
// page behind every hostile robots.txt, and robots.txt naming the sitemap bombs) and of each
// hostile page on an origin of its own, beside a normal site, with the real crawler: it ends,
// crawls the normal site completely, keeps the heap and the process's peak RSS under 256 MiB,
// and records every broken answer as an error, never as fetched.
func TestHostileWebBesideANormalSite(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole hostile web takes most of a minute")
	}
	if raceDetector {
		// Its subject is a memory bound; the race detector multiplies memory use. The crawler's
		// concurrency is covered under -race by the other tests of this package.
		t.Skip("memory bounds are not measurable under the race detector")
	}
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	normal := testweb.Site{Key: "normal", Robots: &robots}
	home := testweb.Page{Path: "/", Title: "Home"}
	for i := 1; i < 50; i++ {
		p := fmt.Sprintf("/p%d", i)
		home.Links = append(home.Links, p)
		normal.Pages = append(normal.Pages, testweb.Page{Path: p, Title: p, Text: "plain page " + p})
	}
	normal.Pages = append(normal.Pages, home)
	broken := []string{hostile.PathStall, hostile.PathBreak, hostile.PathHang, hostile.PathReset, hostile.PathDrip}
	bombPages := []string{hostile.PathGzipBomb, hostile.PathBrotliBomb, hostile.PathZstdBomb}
	bombs := &hostile.Bombs{}
	bombs.Warm() // the server's cost, not the crawl's: a bomb made on demand outlasts the header timeout
	sites := []testweb.Site{normal}
	seeds := []string{"{normal}/"}
	for _, p := range home.Links {
		seeds = append(seeds, "{normal}"+p)
	}
	// The whole hostile web, each origin seeded at its index: with --max-depth 1 every hostile
	// page is requested, and the traps' links (calendar, /a/a/, 5,000 links) stop at the depth
	// or the page budget. The robots.txt of "hostile" names the four sitemap bombs; the crawler
	// streams sitemaps (fetch.Stream), so each costs a few buffers of the budget.
	for _, s := range hostile.Sites(bombs) {
		sites = append(sites, s)
		seeds = append(seeds, "{"+s.Key+"}"+hostile.PathIndex)
	}
	e := newEnv(t, sites)
	shares, err := budget.Split(hostileMemoryBound)
	if err != nil {
		t.Fatal(err)
	}
	// The store with the page caches' share, as the command opens it.
	e.store.Close()
	if e.store, err = sqlite.Open(context.Background(), e.path, sqlite.Options{PageCacheBytes: shares.Of(budget.PageCaches)}); err != nil {
		t.Fatal(err)
	}
	// The soft memory limit the command sets (cmd/mandelbot: setMemoryLimit).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(shares.Of(budget.GoHeap)))
	runtime.GC()
	resetPeakRSS := resetPeakRSS()
	if resetPeakRSS {
		t.Logf("RSS before the crawl: %.0f MiB", float64(statusKB(t, "VmRSS:"))/(1<<10))
	}
	stop := sampleMemory()
	start := time.Now()
	// The harness's client, with time for three bombs to take turns at the memory budget (its
	// 2 s total timeout is for pages that answer at once) and a short idle timeout.
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, Now: e.clock.Now, TotalTimeout: 4 * time.Second,
		ResponseHeaderTimeout: time.Second, BodyIdleTimeout: time.Second,
		MaxBufferedBytes: shares.Of(budget.Bodies), MaxDecodedBytes: fetch.MaxDecodedFor(shares.Of(budget.Bodies))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	opts := Options{Store: e.store, Clock: e.clock, Fetcher: client, MaxDepth: 1, Concurrency: 16}
	opts.Frontier.PerOrigin = 4           // the hostile origins' stalls take turns faster
	opts.Frontier.MaxPagesPerOrigin = 100 // the normal site has 50
	for _, s := range seeds {
		opts.Seeds = append(opts.Seeds, e.web.Expand(s))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := Run(ctx, opts)
	if err != nil || ctx.Err() != nil {
		t.Fatalf("crawl: %v, %v (stats %+v)", err, ctx.Err(), st)
	}
	took, peaks := time.Since(start), stop()
	t.Logf("crawl took %v (%s; %d pages, %d errors, %d rejected), peak heap growth %.0f MiB, peak Go runtime memory %.0f MiB",
		took.Round(time.Millisecond), st.StopReason, st.Pages, st.Errors, st.Rejected,
		float64(peaks.heapGrowth)/(1<<20), float64(peaks.goRuntime)/(1<<20))
	if peaks.heapGrowth > hostileMemoryBound {
		t.Errorf("peak heap grew by %d MiB, over %d MiB", peaks.heapGrowth>>20, hostileMemoryBound>>20)
	}
	if resetPeakRSS {
		rss := peakRSS(t)
		t.Logf("peak RSS of the test process (crawler and hostile servers): %.0f MiB", float64(rss)/(1<<20))
		if rss > hostileMemoryBound {
			t.Errorf("peak RSS %.0f MiB, over %d MiB (peak Go runtime memory %.0f MiB: see hostileMemoryBound)",
				float64(rss)/(1<<20), hostileMemoryBound>>20, float64(peaks.goRuntime)/(1<<20))
		}
	}
	urls := e.urls()
	for i := 0; i < 50; i++ {
		p := fmt.Sprintf("/p%d", i)
		if i == 0 {
			p = "/"
		}
		if u := urls[e.web.URL("normal", p)]; u.State != store.StateFetched {
			t.Errorf("normal %s: %v (%s)", p, u.State, u.Reason)
		}
	}
	for _, p := range broken {
		if u := urls[e.web.URL("hostile", p)]; u.State != store.StateError {
			t.Errorf("%s: %v (%s); want error", p, u.State, u.Reason)
		}
	}
	for _, p := range bombPages {
		if u := urls[e.web.URL("hostile", p)]; u.State != store.StateFetched || !strings.Contains(u.Reason, "decoded size") {
			t.Errorf("%s: %v (%s); want fetched, cut at the decoded size limit", p, u.State, u.Reason)
		}
	}
	for _, p := range []string{hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb, hostile.PathSitemapGzipFile} {
		if u := urls[e.web.URL("hostile", p)]; u.State != store.StateFetched || !strings.Contains(u.Reason, "sitemap cut at its limit") {
			t.Errorf("sitemap %s: %v (%s); want fetched, cut at a sitemap limit", p, u.State, u.Reason)
		}
	}
	if t.Failed() {
		for _, u := range urls {
			t.Logf("%-60.60s %-16v %.120s", u.URL, u.State, u.Reason)
		}
	}
}

// memoryPeaks is what sampleMemory saw during a crawl.
type memoryPeaks struct {
	heapGrowth uint64 // peak of the heap's live and unswept objects, over their size at the start
	goRuntime  uint64 // peak of the memory the Go runtime holds from the OS (all classes but released)
}

// sampleMemory samples the Go runtime's memory every millisecond until the function it returns is
// called, which returns the peaks.
func sampleMemory() func() memoryPeaks {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	read := func() (objects, held uint64) {
		metrics.Read(s)
		return s[0].Value.Uint64(), s[1].Value.Uint64() - s[2].Value.Uint64()
	}
	base, _ := read()
	done, result := make(chan struct{}), make(chan memoryPeaks)
	go func() {
		var p memoryPeaks
		peakObjects := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			objects, held := read()
			peakObjects, p.goRuntime = max(peakObjects, objects), max(p.goRuntime, held)
			select {
			case <-done:
				p.heapGrowth = peakObjects - base
				result <- p
				return
			case <-tick.C:
			}
		}
	}()
	return func() memoryPeaks { close(done); return <-result }
}

// resetPeakRSS resets the process's peak RSS (VmHWM) through /proc/self/clear_refs, and reports
// whether it could (Linux only).
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS reads the process's peak RSS (VmHWM) since the last reset.
func peakRSS(t *testing.T) uint64 {
	t.Helper()
	return statusKB(t, "VmHWM:") << 10
}

// statusKB reads a field given in kB from /proc/self/status.
func statusKB(t *testing.T, field string) uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
