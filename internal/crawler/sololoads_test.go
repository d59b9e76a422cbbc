package crawler

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// soloWatched is a real SQLite store whose LoadOrigin calls report whether two ran at once:
// each waits up to loadOverlap for a second one beside it.
type soloWatched struct {
	*sqlite.Store
	mu        sync.Mutex
	inLoad    int
	maxInLoad int
	together  chan struct{} // closed once two LoadOrigin calls run at once
}

func (w *soloWatched) LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	w.mu.Lock()
	w.inLoad++
	if w.inLoad == 2 && w.maxInLoad < 2 {
		close(w.together)
	}
	w.maxInLoad = max(w.maxInLoad, w.inLoad)
	w.mu.Unlock()
	select {
	case <-w.together:
	case <-time.After(loadOverlap):
	}
	defer func() {
		w.mu.Lock()
		w.inLoad--
		w.mu.Unlock()
	}()
	return w.Store.LoadOrigin(ctx, key, now, limit)
}

// Issue 31 (the time from start to the first request): alone on its store (SQLite), a crawl
// taking over thousands of origins at start loads several at a time, not one by one (5,000
// loads held a 5,000-origin crawl's first request back 2-3 s at a load average of 16), and
// each load answers with its origin's due URLs.
func TestIssue31SoloStoreLoadsSeveralAtOnce(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var b store.Batch
	for i := range 6 {
		key := fmt.Sprintf("http://o%d.test", i)
		b.New = append(b.New, store.NewURL{URL: key + "/", Origin: key, State: store.StateQueued, DiscoveredAt: t0})
	}
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	w := &soloWatched{Store: s, together: make(chan struct{})}
	k := newLeaseKeeper(w, "a", keeperTTL, maxLeasedAtStart)
	in, out := make(chan loadReq, 6), make(chan loadResp, 6)
	for _, o := range origins(0, 6) {
		in <- loadReq{origin: o, limit: 10, now: t0.Add(time.Hour)}
	}
	close(in)
	newLoader(w, k).run(ctx, in, out)
	n := 0
	for r := range out {
		n++
		if r.err != nil || !r.leased || len(r.load.Due) != 1 {
			t.Errorf("load of %s: leased %v, %d due URLs, %v; want leased, 1", r.req.origin, r.leased, len(r.load.Due), r.err)
		}
	}
	if n != 6 {
		t.Errorf("%d answers to 6 loads", n)
	}
	if w.maxInLoad < 2 {
		t.Errorf("at most %d LoadOrigin at once, want several", w.maxInLoad)
	}
}
