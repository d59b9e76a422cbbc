package crawler

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// deadRun crawls seeds with a client that pins hosts to addresses (resolve) on a virtual clock,
// and returns the run's Stats and how long it took on that clock.
func deadRun(t *testing.T, seeds []string, resolve map[string]string, tune func(*Options)) (Stats, time.Duration) {
	t.Helper()
	vc := clock.NewVirtual(t0)
	c, err := fetch.New(fetch.Options{Resolve: resolve, Now: vc.Now, TotalTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := Options{Seeds: seeds, Fetcher: c, Store: st, Clock: vc, MaxDepth: -1}
	if tune != nil {
		tune(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stats, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return stats, vc.Now().Sub(t0)
}

// closedPort returns a loopback address nothing listens on: connections are refused.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// issue 27 ("failures end fast"): when every seed's origin refuses connections, the run ends
// DefaultGiveUpAfter (30 s) after it started, not after the robots.txt retries (1 min, then 2,
// then 4: 3 minutes), and says why once: nothing was fetched, the reason is the refusal.
func TestIssue27_RefusedSeedGivesUpWithin30s(t *testing.T) {
	_, port, _ := net.SplitHostPort(closedPort(t))
	stats, took := deadRun(t, []string{"http://dead.test:" + port + "/"}, map[string]string{"dead.test:" + port: "127.0.0.1"}, nil)
	if took > 30*time.Second+time.Second {
		t.Errorf("the run took %v of crawl time; want at most 30s", took)
	}
	if !stats.FetchedNothing() || !strings.Contains(stats.Failure, "refused") {
		t.Errorf("FetchedNothing %v, Failure %q; want true and the refusal", stats.FetchedNothing(), stats.Failure)
	}
	if stats.StopReason != StopGaveUp {
		t.Errorf("stop reason %v; want gave_up, not a wait that invites a re-run of a crawl that reached nothing", stats.StopReason)
	}
	// A longer GiveUpAfter waits for the retries.
	_, took = deadRun(t, []string{"http://dead.test:" + port + "/"}, map[string]string{"dead.test:" + port: "127.0.0.1"}, func(o *Options) {
		o.GiveUpAfter = 10 * time.Minute
	})
	if took < 3*time.Minute {
		t.Errorf("with GiveUpAfter 10m the run ended after %v; want the robots.txt retries waited for", took)
	}
}

// issue 27: a seed whose host does not resolve ends the run at once, naming the host.
func TestIssue27_UnresolvableSeedFailsAtOnce(t *testing.T) {
	start := time.Now()
	stats, took := deadRun(t, []string{"http://no-such-host.invalid/"}, nil, nil)
	if took > time.Second || time.Since(start) > 10*time.Second {
		t.Errorf("the run took %v of crawl time (%v real); want it to end at once", took, time.Since(start))
	}
	if !stats.FetchedNothing() || !strings.Contains(stats.Failure, "no-such-host.invalid") || !strings.Contains(stats.Failure, "does not resolve") {
		t.Errorf("FetchedNothing %v, Failure %q; want the host named as not resolving", stats.FetchedNothing(), stats.Failure)
	}
}

// issue 27: a seed whose server accepts connections and never answers (robots.txt hangs past
// GiveUpAfter) ends the run at GiveUpAfter too, not at the fetch timeouts: the request in
// flight is cancelled.
func TestIssue27_HangingSeedGivesUpAtGiveUpAfter(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered, until the test ends
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	start := time.Now()
	stats, _ := deadRun(t, []string{"http://hang.test:" + port + "/"}, map[string]string{"hang.test:" + port: "127.0.0.1"}, func(o *Options) {
		// A request in flight does not let a virtual clock move: this one runs on the wall
		// clock, with a give-up well before the client's 2 s total timeout.
		o.Clock, o.GiveUpAfter = clock.Real{}, 300*time.Millisecond
	})
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("the run took %v; want it to end at GiveUpAfter (300ms), not the fetch timeout (2s)", took)
	}
	if !stats.FetchedNothing() || !stats.GaveUp || stats.Failure == "" {
		t.Errorf("FetchedNothing %v, GaveUp %v, Failure %q; want a give-up with a reason", stats.FetchedNothing(), stats.GaveUp, stats.Failure)
	}
}

// issue 27 ("failures end fast") without failing a run that is merely waiting: GiveUpAfter is how
// long requests may go unanswered, so its time starts with the run's first request, not with the
// run. Here a resumed run finds its only origin paused by a 503 (Retry-After 300 s) for longer
// than GiveUpAfter; its first request goes out when the pause ends and is answered at once. The
// run must crawl the site, not give up because 30 s passed while it waited (as a cluster worker
// waiting for a lease, or one loading thousands of origins, would too).
func TestIssue27_GiveUpCountsFromTheFirstRequest(t *testing.T) {
	robots := testweb.RobotsTxt("User-agent: *\nAllow: /\n")
	robots.Script = []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(300)}, {}}
	e := newEnv(t, []testweb.Site{{Key: "a", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Home", Links: []string{"/next"}}, {Path: "/next", Title: "Next"}}}})
	first := e.crawl([]string{"{a}/"}, func(o *Options) { o.MaxWait = 10 * time.Second })
	if first.Pages != 0 || first.GaveUp {
		t.Fatalf("the first run: %d pages, gave up %v; want it ended waiting out the 503's pause", first.Pages, first.GaveUp)
	}
	second := e.crawl(nil, func(o *Options) { o.MaxWait = 10 * time.Minute })
	if second.GaveUp || second.Pages != 2 {
		t.Errorf("the resumed run: gave up %v (%q), %d pages; want both pages crawled once the pause ended", second.GaveUp, second.Failure, second.Pages)
	}
}
