package crawler

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
)

// watchedStore is a real PostgreSQL store whose ReleaseOrigins calls are recorded and whose
// LoadOrigin calls report how many ran at once.
type watchedStore struct {
	*postgres.Store
	// loaded, when set, is closed when a LoadOrigin returns; LeaseOrigins waits for it (at
	// most loadOverlap).
	loaded    chan struct{}
	mu        sync.Mutex
	releases  [][]string
	inLoad    int
	maxInLoad int
	together  chan struct{} // closed once two LoadOrigin calls run at once
	// leaseOne and leaseEach count the LeaseOrigin and LeaseEach calls.
	leaseOne, leaseEach int
}

func (w *watchedStore) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	w.mu.Lock()
	w.leaseOne++
	w.mu.Unlock()
	return w.Store.LeaseOrigin(ctx, owner, key, now, ttl)
}

func (w *watchedStore) LeaseEach(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error) {
	w.mu.Lock()
	w.leaseEach++
	w.mu.Unlock()
	return w.Store.LeaseEach(ctx, owner, keys, now, ttl)
}

func (w *watchedStore) ReleaseOrigins(ctx context.Context, owner string, keys []string) error {
	w.mu.Lock()
	w.releases = append(w.releases, slices.Clone(keys))
	w.mu.Unlock()
	return w.Store.ReleaseOrigins(ctx, owner, keys)
}

// loadOverlap is how long a LoadOrigin call waits for a second one to start beside it: a loader
// that reads one origin at a time never starts one, and each call then takes this long.
const loadOverlap = time.Second

func (w *watchedStore) LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	w.mu.Lock()
	w.inLoad++
	if w.inLoad == 2 && w.maxInLoad < 2 {
		close(w.together) // the first time only
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
		if w.loaded != nil {
			close(w.loaded)
			w.loaded = nil
		}
		w.mu.Unlock()
	}()
	return w.Store.LoadOrigin(ctx, key, now, limit)
}

func (w *watchedStore) LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
	w.mu.Lock()
	loaded := w.loaded
	w.mu.Unlock()
	if loaded != nil {
		select {
		case <-loaded:
		case <-time.After(loadOverlap):
		}
	}
	return w.Store.LeaseOrigins(ctx, owner, now, until, ttl, max)
}

// runLoader queues reqs for a loader of a keeper of owner "a" on s before the loader starts, as
// they pile up while it is busy, and returns its answers.
func runLoader(t *testing.T, s *watchedStore, k *leaseKeeper, reqs []loadReq) []loadResp {
	t.Helper()
	in, out := make(chan loadReq, len(reqs)), make(chan loadResp, len(reqs))
	for _, r := range reqs {
		in <- r
	}
	close(in)
	newLoader(s, k).run(context.Background(), in, out)
	var got []loadResp
	for r := range out {
		if r.err != nil {
			t.Fatalf("%+v: %v", r.req, r.err)
		}
		got = append(got, r)
	}
	if len(got) != len(reqs) {
		t.Fatalf("%d answers to %d requests", len(got), len(reqs))
	}
	// The acquires are answered from a lane of their own; the rest in the order asked.
	var rest []loadResp
	var asked []loadReq
	for i := range got {
		if !got[i].req.acquire {
			rest = append(rest, got[i])
		}
		if !reqs[i].acquire {
			asked = append(asked, reqs[i])
		}
	}
	for i := range rest {
		if rest[i].req.origin != asked[i].origin || !slices.Equal(rest[i].req.release, asked[i].release) {
			t.Fatalf("answer %d is to %+v, want %+v: answers out of order", i, rest[i].req, asked[i])
		}
	}
	return got
}

// Issue 31 part 3: leases are "handed back in batches". Origins a worker finished while its
// loader was busy are handed back in one statement, not one round trip each, even with an
// acquire among them (a worker on PostgreSQL released 4,096 origins one statement each, an
// acquire of 600 ms between every few, and its fetches waited behind them).
func TestIssue31ReleasesThatQueuedUpAreOneStatement(t *testing.T) {
	ctx := context.Background()
	s := &watchedStore{Store: sharedStore(t, 6).(*postgres.Store), together: make(chan struct{})}
	k := newLeaseKeeper(s, "a", keeperTTL, 10)
	if got, err := k.Acquire(ctx, t0, t0.Add(time.Hour)); err != nil || len(got) != 6 {
		t.Fatalf("Acquire = %q, %v", got, err)
	}
	early := t0.Add(-time.Minute)
	var reqs []loadReq
	for i, o := range origins(0, 5) {
		if i == 2 {
			// An acquire between them (a minute early: no origin due, as for a worker whose
			// released origins have nothing due): it waits for the releases.
			reqs = append(reqs, loadReq{acquire: true, now: early})
		}
		reqs = append(reqs, loadReq{release: []string{o}, now: t0})
	}
	runLoader(t, s, k, reqs)
	if want := [][]string{origins(0, 5)}; !slices.EqualFunc(s.releases, want, slices.Equal) {
		t.Errorf("ReleaseOrigins calls: %q, want one: %q", s.releases, want)
	}
	if got := k.Held(); !slices.Equal(got, origins(5, 6)) {
		t.Errorf("held after the releases: %q, want %q", got, origins(5, 6))
	}
	b := newLeaseKeeper(s, "b", keeperTTL, 10)
	if got, err := b.Acquire(ctx, early, t0.Add(time.Hour)); err != nil || !slices.Equal(got, origins(0, 5)) {
		t.Errorf("another owner's Acquire after the releases = %q, %v; want %q", got, err, origins(0, 5))
	}
}

// Issue 31: a worker on PostgreSQL taking over thousands of origins loads them several at a
// time (one at a time, 4,096 loads of about 3 ms each kept its first request back 15 s), in
// the batch's bound, and answers them in the order asked; a release queued before a load of the
// same origin is done first.
func TestIssue31LoadsThatQueuedUpRunTogether(t *testing.T) {
	s := &watchedStore{Store: sharedStore(t, 6).(*postgres.Store), together: make(chan struct{})}
	k := newLeaseKeeper(s, "a", keeperTTL, 5)
	if ok, err := k.Lease(context.Background(), origins(5, 6)[0], t0); err != nil || !ok {
		t.Fatalf("Lease = %v, %v", ok, err)
	}
	reqs := []loadReq{{release: origins(5, 6), now: t0}}
	for _, o := range origins(0, 6) {
		reqs = append(reqs, loadReq{origin: o, limit: 10, now: t0.Add(time.Hour)})
	}
	got := runLoader(t, s, k, reqs)
	if s.maxInLoad < 2 {
		t.Errorf("at most %d LoadOrigin at once, want several", s.maxInLoad)
	}
	leased := 0
	for _, r := range got[1:] {
		if r.leased {
			leased++
			if len(r.load.Due) != 1 {
				t.Errorf("load of %s: %d due URLs, want 1", r.req.origin, len(r.load.Due))
			}
		}
	}
	if leased != 5 || len(k.Held()) != 5 {
		t.Errorf("%d loads leased, %d origins held; want the batch, 5", leased, len(k.Held()))
	}
}

// Issue 31: the origins of loads that queued up together are leased in one statement, not one
// durable commit each (a worker taking over 5,000 origins spent seconds leasing them, 5 ms
// apiece at a load average of 10, before its first requests), and each is then loaded.
func TestIssue31LoadsThatQueuedUpLeaseInOneStatement(t *testing.T) {
	s := &watchedStore{Store: sharedStore(t, 6).(*postgres.Store), together: make(chan struct{})}
	k := newLeaseKeeper(s, "a", keeperTTL, 10)
	var reqs []loadReq
	for _, o := range origins(0, 6) {
		reqs = append(reqs, loadReq{origin: o, limit: 10, now: t0.Add(time.Hour)})
	}
	got := runLoader(t, s, k, reqs)
	for _, r := range got {
		if !r.leased || len(r.load.Due) != 1 {
			t.Errorf("load of %s: leased %v, %d due URLs; want leased, 1", r.req.origin, r.leased, len(r.load.Due))
		}
	}
	if s.leaseEach != 1 || s.leaseOne != 0 || len(k.Held()) != 6 {
		t.Errorf("%d LeaseEach and %d LeaseOrigin calls, %d origins held; want 1, 0 and 6", s.leaseEach, s.leaseOne, len(k.Held()))
	}
}

// Issue 31: an acquire (one look at every origin of the store: 600 ms at a load average of 20)
// does not hold up the loads asked after it: a worker's first requests waited behind ten of them.
func TestIssue31AcquireDoesNotHoldUpLoads(t *testing.T) {
	s := &watchedStore{Store: sharedStore(t, 2).(*postgres.Store), together: make(chan struct{}), loaded: make(chan struct{})}
	close(s.together) // one load: nothing to wait for beside it
	k := newLeaseKeeper(s, "a", keeperTTL, 10)
	got := runLoader(t, s, k, []loadReq{{acquire: true, now: t0}, {origin: origins(0, 1)[0], limit: 10, now: t0}})
	if !got[0].leased || got[1].req.acquire != true {
		t.Errorf("answers: first to %+v, then to %+v; want the load's first", got[0].req, got[1].req)
	}
}
