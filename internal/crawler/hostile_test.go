package crawler

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("what it must show"): a crawl of hostile origins (each hostile page on an origin
// of its own, since one origin is crawled one request at a time) beside a normal site ends, crawls the normal site completely, keeps the
// heap bounded, and records every broken answer as an error, never as fetched. The whole
// hostile web (hostile.Sites, every robots.txt variant and every page) is for benchmarks: it
// is too heavy for a unit test.
func TestHostileWebBesideANormalSite(t *testing.T) {
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
	others := []string{hostile.PathLongLine, hostile.PathNoLength, hostile.PathManyLinks, hostile.PathDeepNesting,
		hostile.PathInvalidUTF8, hostile.PathHugeHeader, hostile.PathManyHeaders, hostile.PathLoopA, hostile.PathChain}
	bombs := &hostile.Bombs{}
	bombs.Warm() // the server's cost, not the crawl's: a bomb made on demand outlasts the header timeout
	// The site "sm" names the four sitemap bombs in its robots.txt; the crawler streams sitemaps
	// (fetch.Stream), so each costs a few buffers of the budget, not its decoded size.
	sites := []testweb.Site{normal, hostile.Site("sm", hostile.Options{Sitemaps: true, Bombs: bombs})}
	seeds := []string{"{normal}/", "{sm}/"}
	for _, p := range home.Links {
		seeds = append(seeds, "{normal}"+p) // depth 0: the hostile pages' links stay unfollowed
	}
	key := map[string]string{}
	for i, p := range append(append(broken, bombPages...), others...) {
		k := fmt.Sprintf("h%d", i)
		key[p] = k
		sites = append(sites, hostile.Site(k, hostile.Options{Bombs: bombs}))
		seeds = append(seeds, "{"+k+"}"+p)
	}
	e := newEnv(t, sites)
	runtime.GC()
	stop := sampleHeapPeak()
	start := time.Now()
	// The harness's client, with time for three bombs to take turns at the memory budget (its
	// 2 s total timeout is for pages that answer at once) and a short idle timeout.
	resolve := map[string]string{}
	for _, r := range e.web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	client, err := fetch.New(fetch.Options{Resolve: resolve, Now: e.clock.Now, TotalTimeout: 4 * time.Second,
		ResponseHeaderTimeout: time.Second, BodyIdleTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	e.crawl(seeds, func(o *Options) { o.MaxDepth = 0; o.Concurrency = 16; o.Fetcher = client })
	took, grew := time.Since(start), stop()
	t.Logf("crawl took %v, peak heap growth %.0f MiB", took.Round(time.Millisecond), float64(grew)/(1<<20))
	if grew > 256<<20 {
		t.Errorf("peak heap grew by %d MiB, over 256 MiB", grew>>20)
	}
	urls := e.urls()
	for i := 1; i < 50; i++ {
		if u := urls[e.web.URL("normal", fmt.Sprintf("/p%d", i))]; u.State != store.StateFetched {
			t.Errorf("normal /p%d: %v (%s)", i, u.State, u.Reason)
		}
	}
	for _, p := range broken {
		if u := urls[e.web.URL(key[p], p)]; u.State != store.StateError {
			t.Errorf("%s: %v (%s); want error", p, u.State, u.Reason)
		}
	}
	for _, p := range bombPages {
		if u := urls[e.web.URL(key[p], p)]; u.State != store.StateFetched || !strings.Contains(u.Reason, "decoded size") {
			t.Errorf("%s: %v (%s); want fetched, cut at the decoded size limit", p, u.State, u.Reason)
		}
	}
	for _, p := range []string{hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb, hostile.PathSitemapGzipFile} {
		if u := urls[e.web.URL("sm", p)]; u.State != store.StateFetched || !strings.Contains(u.Reason, "sitemap cut at its limit") {
			t.Errorf("sitemap %s: %v (%s); want fetched, cut at a sitemap limit", p, u.State, u.Reason)
		}
	}
	if t.Failed() {
		for _, u := range urls {
			t.Logf("%-60.60s %-16v %.120s", u.URL, u.State, u.Reason)
		}
	}
}

// sampleHeapPeak samples the heap every millisecond until the function it returns is called;
// that returns the peak growth over the heap at the start.
func sampleHeapPeak() func() uint64 {
	read := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	base := read()
	done, result := make(chan struct{}), make(chan uint64)
	go func() {
		peak := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				result <- peak - base
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-result }
}
