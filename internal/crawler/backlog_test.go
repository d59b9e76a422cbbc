package crawler

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// heldStore holds the first Commit that starts once hold returns true, until release is
// closed: a writer held by an indexer's long fold, or a slow disk.
type heldStore struct {
	*sqlite.Store
	mu      sync.Mutex
	hold    func() bool
	done    bool
	held    chan struct{} // closed when the held Commit starts waiting
	release chan struct{}
}

func (s *heldStore) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	s.mu.Lock()
	hold := !s.done && s.hold()
	s.done = s.done || hold
	s.mu.Unlock()
	if hold {
		close(s.held)
		<-s.release
	}
	return s.Store.Commit(ctx, b)
}

// Issue 8 item 1 ("an origin's next URL is dispatched as soon as its politeness rules allow,
// not when the last outcome is durable"): while the store's writer is held, requests for the
// URLs the frontier holds go on being sent, beyond what the writer's own queue holds (its group
// and queue of commitGroupMax each), up to the scheduler's backlog; when it is released every
// outcome is saved, none twice. Every page is a seed, so the store knows them all before the
// first request and the frontier's window (an origin's 200) holds them: the writer is held at
// the first commit after holdAfter requests, whatever the pace of the sitemaps' outcomes.
func TestRequestsGoOnWhileTheWriterIsHeld(t *testing.T) {
	const origins, pages, concurrency, holdAfter = 10, 200, 8, 300
	// Without the backlog the crawl stops at about the requests made when the writer is held +
	// commitGroupMax (the writer's queue) + the requests in flight (831 and 843 with the backlog
	// cut to one write, held at 300). With it, it goes on until the frontier runs out of the URLs
	// it holds. want counts from the requests made when the writer is held and asks 150 beyond
	// the stop without the backlog. (Before every page was a seed, the hold waited for the
	// sitemaps' outcomes to be saved, which the backlog itself delays: under the race detector
	// the crawl sometimes ended first.)
	const past = commitGroupMax + 2*concurrency + 150
	var (
		mu      sync.Mutex
		count   int
		want    int // set when the writer is held: the requests made then + past
		reached = make(chan struct{})
	)
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: origins, PagesPerOrigin: pages, LinksPerPage: 4, Seed: 3}),
		testweb.Options{OnRequest: func(testweb.Request) {
			mu.Lock()
			defer mu.Unlock()
			if count++; count == want {
				close(reached)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	e := &env{t: t, web: web, clock: clock.NewVirtual(t0), path: filepath.Join(t.TempDir(), "crawl.db")}
	e.open()
	st := e.store
	held := &heldStore{Store: st, held: make(chan struct{}), release: make(chan struct{}), hold: func() bool {
		mu.Lock()
		defer mu.Unlock()
		if count < holdAfter {
			return false
		}
		if count+past > origins*pages {
			t.Errorf("the writer would be held after %d requests, too late to see %d more of %d pages", count, past, origins*pages)
		}
		want = count + past
		return true
	}}
	// Every page is counted exactly once below: no request may time out and be asked again.
	client := e.clientTimed(false, 30*time.Second)
	var seeds []string
	for i := range origins {
		for n := range pages {
			seeds = append(seeds, web.Expand("{"+testweb.GenKey(i)+"}"+testweb.GenPath(n)))
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := Run(context.Background(), Options{Seeds: seeds, Fetcher: client, Store: held, Clock: e.clock,
			MaxDepth: -1, Concurrency: concurrency})
		if err != nil {
			t.Errorf("crawl: %v", err)
		}
	}()
	select {
	case <-held.held:
	case <-done:
		t.Fatal("the crawl ended and the writer was never held")
	}
	select {
	case <-reached:
	case <-time.After(20 * time.Second): // a failure's bound, not a wait for a pause
		mu.Lock()
		t.Errorf("with the writer held, the crawl sent %d requests and stopped; want at least %d (%d past those made when it was held)", count, want, past)
		mu.Unlock()
	}
	close(held.release)
	<-done
	counts, err := st.Counts(t.Context(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if counts[store.StateFetched] < origins*pages {
		t.Errorf("%d URLs fetched in the store; want every page, %d", counts[store.StateFetched], origins*pages)
	}
	for _, key := range web.Keys() {
		for n := range pages {
			if c := web.Count(key, testweb.GenPath(n)); c != 1 {
				t.Errorf("%s%s requested %d times, want once", key, testweb.GenPath(n), c)
			}
		}
	}
}
