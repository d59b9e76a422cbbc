package hostile_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
	"github.com/fractle/mandelbot/sitemap"
)

var pageBombs = []string{hostile.PathGzipBomb, hostile.PathBrotliBomb, hostile.PathZstdBomb}

// warm compresses the bombs before a test measures anything: making them is the server's cost.
func warm(t *testing.T, base string, paths ...string) {
	t.Helper()
	c := client(t, fetch.Options{MaxDecodedBytes: 1})
	for _, p := range paths {
		resp, err := get(t, c, base+p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Release()
	}
}

// issue 9: a gzip, brotli or zstd bomb as a page is cut at the decoded limit (32 MiB): the
// response says so, and the heap holds the limit (and the buffer it grew from), not the bomb.
func TestPageBombs(t *testing.T) {
	base := start(t, hostile.Options{})
	warm(t, base, pageBombs...)
	for _, p := range pageBombs {
		t.Run(p, func(t *testing.T) {
			c := client(t, fetch.Options{})
			h := sampleHeap(t)
			resp, err := get(t, c, base+p)
			if err != nil {
				t.Fatal(err)
			}
			if !resp.Truncated || resp.TruncatedBy != fetch.LimitDecoded || len(resp.Body) != fetch.DefaultMaxDecodedBytes {
				t.Errorf("truncated %v by %v, %d bytes; want cut at the decoded limit", resp.Truncated, resp.TruncatedBy, len(resp.Body))
			}
			resp.Release()
			h.check(t, 96*MiB, 10*time.Second)
		})
	}
}

// issue 9: sixteen bombs fetched at once share one memory budget: what they hold together never
// passes it (the budget's own peak), and the heap stays under 256 MiB. Without the budget each
// would hold its 32 MiB body and the 16 MiB buffer it grew from: 768 MiB.
func TestManyBombsAtOnceStayUnderTheBudget(t *testing.T) {
	base := start(t, hostile.Options{})
	warm(t, base, pageBombs...)
	b := budget.New(fetch.DefaultMaxBufferedBytes)
	c := client(t, fetch.Options{Budget: b})
	h := sampleHeap(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			resp, err := get(t, c, base+pageBombs[i%len(pageBombs)])
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Release()
			if len(resp.Body) != fetch.DefaultMaxDecodedBytes {
				t.Errorf("%d bytes, want the decoded limit", len(resp.Body))
			}
		})
	}
	wg.Wait()
	if b.Peak() > b.Size() || b.Used() != 0 {
		t.Errorf("budget peak %d of %d, %d still held after every Release", b.Peak(), b.Size(), b.Used())
	}
	t.Logf("budget peak %.1f MiB of %d MiB", float64(b.Peak())/MiB, b.Size()/MiB)
	h.check(t, 256*MiB, 60*time.Second)
}

var sitemapBombs = []string{hostile.PathSitemapGzipBomb, hostile.PathSitemapBrotliBomb, hostile.PathSitemapZstdBomb, hostile.PathSitemapGzipFile}

// issue 9: a sitemap bomb streamed from the network into sitemap.Parse (fetch.Stream) costs
// buffers and a decoder window, not the 50 MiB a buffered sitemap may hold: the parser cuts it
// at its entry limit (sitemaps.org: 50,000) and the rest is never read.
func TestSitemapBombsStream(t *testing.T) {
	base := start(t, hostile.Options{})
	warm(t, base, sitemapBombs...)
	for _, p := range sitemapBombs {
		t.Run(p, func(t *testing.T) {
			c := client(t, fetch.Options{})
			h := sampleHeap(t)
			var res sitemap.Result
			var perr error
			resp, err := c.Stream(context.Background(), fetch.Request{URL: base + p, MaxDecodedBytes: 50 * MiB},
				func(resp *fetch.Response, body io.Reader) error {
					res, perr = sitemap.Parse(body, sitemap.Options{}, func(sitemap.Entry) error { return nil })
					return nil
				})
			if err != nil || perr != nil {
				t.Fatalf("stream: %v; parse: %v", err, perr)
			}
			if resp.Status != 200 || !res.Cut || res.Entries != sitemap.MaxEntries {
				t.Errorf("status %d, %d entries, cut %v (%s); want cut at %d entries", resp.Status, res.Entries, res.Cut, res.CutReason, sitemap.MaxEntries)
			}
			// Buffered, the same sitemap would hold 50 MiB and the 32 MiB buffer it grew from.
			h.check(t, 40*MiB, 10*time.Second)
		})
	}
}

// issue 9: a robots.txt bomb is read up to the parse limit (rule 10: 500 KiB) and its rules
// apply; the bomb costs the limit, not its size.
func TestRobotsBombs(t *testing.T) {
	for _, p := range []string{hostile.PathRobotsGzipBomb, hostile.PathRobotsBrotliBomb, hostile.PathRobotsZstdBomb} {
		t.Run(p, func(t *testing.T) {
			base := start(t, hostile.Options{Robots: p})
			warm(t, base, p)
			c := client(t, fetch.Options{})
			h := sampleHeap(t)
			d := robots.Fetch(context.Background(), c, base+"/robots.txt", robots.FetchOptions{})
			if d.Kind != robots.KindRules || !d.Truncated || d.Robots.For("Mandelbot").Test("/private/x").Allowed {
				t.Errorf("kind %v, truncated %v; want rules, cut, /private disallowed", d.Kind, d.Truncated)
			}
			h.check(t, 24*MiB, 10*time.Second)
		})
	}
}

// The budget also bounds a request whose memory cannot be had: with a budget too small for
// one large body, the request waits until its total timeout and fails, naming the budget.
func TestBudgetWaitEndsAtTheTimeout(t *testing.T) {
	base := start(t, hostile.Options{})
	warm(t, base, hostile.PathGzipBomb)
	b := budget.New(fetch.DefaultMaxBufferedBytes)
	if err := b.Acquire(context.Background(), b.Size()-MiB); err != nil { // someone else holds it all
		t.Fatal(err)
	}
	c := client(t, fetch.Options{Budget: b, TotalTimeout: 500 * time.Millisecond})
	_, err := get(t, c, base+hostile.PathGzipBomb)
	if !errors.Is(err, fetch.ErrTotalTimeout) {
		t.Fatalf("err %v, want the total timeout while waiting for memory", err)
	}
	if b.Used() != b.Size()-MiB {
		t.Errorf("the failed request kept %d bytes of the budget", b.Used()-(b.Size()-MiB))
	}
}
