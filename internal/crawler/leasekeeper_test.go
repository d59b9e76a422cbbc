package crawler

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

const keeperTTL = DefaultLeaseTTL

// sharedStore opens a PostgreSQL store of the test's own with n origins, each with one URL
// due at t0 plus its index in seconds (o0 earliest).
func sharedStore(t *testing.T, n int) store.Store {
	t.Helper()
	s := pgtest.Open(t)
	t.Cleanup(func() { s.Close() })
	var b store.Batch
	for i := range n {
		key := fmt.Sprintf("http://o%d.test", i)
		b.New = append(b.New, store.NewURL{URL: key + "/", Origin: key, State: store.StateQueued,
			DiscoveredAt: t0.Add(time.Duration(i) * time.Second)})
	}
	if _, err := s.Commit(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	return s
}

func origins(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("http://o%d.test", i))
	}
	return out
}

// Issue 12: "origins leased in bounded batches": a process holds at most its batch, so the
// other processes of a cluster find origins to take; what it releases is free again.
func TestLeaseKeeperBoundedBatches(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 10)
	a := newLeaseKeeper(s, "a", keeperTTL, 4)
	b := newLeaseKeeper(s, "b", keeperTTL, 100)
	until := t0.Add(time.Hour)
	if got, err := a.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(0, 4)) {
		t.Fatalf("a.Acquire = %q, %v; want the 4 earliest due", got, err)
	}
	if got, err := a.Acquire(ctx, t0, until); err != nil || len(got) != 0 {
		t.Errorf("a.Acquire with a full batch = %q, %v; want none", got, err)
	}
	if got, err := b.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(4, 10)) {
		t.Errorf("b.Acquire = %q, %v; want the 6 that a does not hold", got, err)
	}
	if err := a.Release(ctx, origins(0, 1)); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(0, 1)) {
		t.Errorf("b.Acquire after a released o0 = %q, %v; want [o0]", got, err)
	}
	if got := a.Held(); !slices.Equal(got, origins(1, 4)) {
		t.Errorf("a.Held = %q", got)
	}
}

// Issue 12: renewal keeps a lease from expiring; a lease not renewed in time is taken over by
// another process, and the next renewal reports it lost (the scheduler must drop the origin).
func TestLeaseKeeperRenewAndTakeover(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 3)
	a := newLeaseKeeper(s, "a", keeperTTL, 0)
	b := newLeaseKeeper(s, "b", keeperTTL, 0)
	if got, _ := a.Acquire(ctx, t0, t0.Add(time.Hour)); len(got) != 3 {
		t.Fatalf("a.Acquire = %q", got)
	}
	renewed := t0.Add(keeperTTL * 9 / 10)
	if lost, err := a.Renew(ctx, renewed); err != nil || len(lost) != 0 {
		t.Fatalf("a.Renew = %q, %v; want nothing lost", lost, err)
	}
	if got, _ := b.Acquire(ctx, t0.Add(keeperTTL*3/2), t0.Add(time.Hour)); len(got) != 0 {
		t.Errorf("b took %q after the first grant expired, though a renewed", got)
	}
	expired := renewed.Add(keeperTTL)
	if got, _ := b.Acquire(ctx, expired, t0.Add(time.Hour)); !slices.Equal(got, origins(0, 3)) {
		t.Fatalf("b.Acquire once a's renewal expired = %q, want all three", got)
	}
	if lost, err := a.Renew(ctx, expired.Add(time.Second)); err != nil || !slices.Equal(lost, origins(0, 3)) {
		t.Errorf("a.Renew after the takeover = %q, %v; want all three lost", lost, err)
	}
	if got := a.Held(); len(got) != 0 {
		t.Errorf("a still holds %q", got)
	}
}

// The keeper's goroutine renews on the crawl clock, at a fraction of the TTL, and reports an
// origin another process took over.
func TestLeaseKeeperRunReportsLoss(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 2)
	clk := clock.NewVirtual(t0)
	a := newLeaseKeeper(s, "a", keeperTTL, 0)
	if got, _ := a.Acquire(ctx, t0, t0.Add(time.Hour)); len(got) != 2 {
		t.Fatalf("a.Acquire = %q", got)
	}
	if ok, err := s.LeaseOrigin(ctx, "b", "http://o0.test", t0.Add(keeperTTL), keeperTTL); err != nil || !ok {
		t.Fatalf("b could not take over an expired lease: %v %v", ok, err)
	}
	stop := make(chan struct{})
	lost := make(chan []string)
	go a.run(ctx, clk, stop, lost, nil)
	defer close(stop)
	deadline := time.After(10 * time.Second)
	for {
		if clk.Waiting() > 0 {
			// One renewal period at a time, only while the keeper waits for it: advancing while a
			// renewal runs could reach the other lease's expiry, which is not this test's loss.
			clk.Advance(keeperTTL / leaseRenewDivisor)
		}
		select {
		case got := <-lost:
			if !slices.Equal(got, []string{"http://o0.test"}) {
				t.Fatalf("lost %q, want [http://o0.test]", got)
			}
			if held := a.Held(); !slices.Equal(held, []string{"http://o1.test"}) {
				t.Errorf("a holds %q after the loss", held)
			}
			return
		case <-deadline:
			t.Fatal("the keeper never reported the lost lease")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Fencing (issue 12): a commit for an origin whose lease was lost is refused, and the rest of
// the group is committed without it; the lost origin is reported, its outcome dropped.
func TestCommitFencedDropsLostOrigins(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 2)
	a := newLeaseKeeper(s, "a", keeperTTL, 0)
	if got, _ := a.Acquire(ctx, t0, t0.Add(time.Hour)); len(got) != 2 {
		t.Fatalf("a.Acquire = %q", got)
	}
	if ok, _ := s.LeaseOrigin(ctx, "b", "http://o0.test", t0.Add(keeperTTL), keeperTTL); !ok {
		t.Fatal("b could not take over an expired lease")
	}
	var urls []store.URL
	s.EachURL(ctx, func(u store.URL) error { urls = append(urls, u); return nil })
	var b store.Batch
	for _, u := range urls {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: "t"})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: "http://new.test/", Anchor: "x"})
	}
	b.New = []store.NewURL{{URL: "http://new.test/", Origin: "http://new.test", State: store.StateQueued, DiscoveredAt: t0}}
	added, lost, err := commitFenced(ctx, s, b, "a")
	if err != nil || !slices.Equal(lost, []string{"http://o0.test"}) || len(added) != 1 {
		t.Fatalf("commitFenced = added %d, lost %q, %v; want 1 added, [o0] lost", len(added), lost, err)
	}
	states := map[string]store.State{}
	s.EachURL(ctx, func(u store.URL) error { states[u.URL] = u.State; return nil })
	if states["http://o0.test/"] != store.StateQueued || states["http://o1.test/"] != store.StateFetched {
		t.Errorf("states after a fenced commit: %v (o0's outcome must be dropped, o1's saved)", states)
	}
	if lag, _ := s.IndexLag(ctx); lag != 1 {
		t.Errorf("%d documents staged, want o1's only", lag)
	}
}

// On a store used by one process (SQLite grants every lease) the keeper renews nothing and its
// goroutine ends at once.
func TestLeaseKeeperOneProcessStore(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := newLeaseKeeper(s, "a", keeperTTL, 0)
	k.Granted("http://o0.test", t0)
	if lost, err := k.Renew(context.Background(), t0.AddDate(1, 0, 0)); err != nil || len(lost) != 0 {
		t.Errorf("Renew = %q, %v", lost, err)
	}
	lost := make(chan []string)
	go k.run(context.Background(), clock.NewVirtual(t0), make(chan struct{}), lost, nil)
	if _, open := <-lost; open {
		t.Error("run sent a loss on a one-process store")
	}
}

// failingRenewals is a shared store whose renewals all fail (the database is unreachable).
type failingRenewals struct{ store.Store }

func (failingRenewals) RenewOrigins(context.Context, string, []string, time.Time, time.Duration) ([]string, error) {
	return nil, errors.New("database unreachable")
}

func (failingRenewals) NextDue(context.Context, string, time.Time) (time.Time, error) {
	return time.Time{}, nil
}

// Issue 12: "the crawler stops sending to an origin TTL/3 before its lease would lapse if
// renewal failed": Safe turns false, and the keeper's goroutine reports the origin lost, once
// the lease's confirmed expiry is TTL/3 away, however the renewals fail.
func TestLeaseKeeperStopsBeforeALeaseLapses(t *testing.T) {
	const ttl = 3 * time.Second
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := newLeaseKeeper(failingRenewals{s}, "a", ttl, 0)
	const key = "http://o0.test"
	k.Granted(key, t0) // confirmed until t0+3s
	if !k.Safe(key, t0.Add(ttl*2/3-time.Millisecond)) {
		t.Errorf("Safe %v before the confirmed expiry = false, want true", ttl/3+time.Millisecond)
	}
	if k.Safe(key, t0.Add(ttl*2/3)) {
		t.Errorf("Safe TTL/3 before the confirmed expiry = true, want false")
	}
	if k.Safe("http://other.test", t0) {
		t.Errorf("Safe for an origin never leased = true")
	}

	clk := clock.NewVirtual(t0)
	stop := make(chan struct{})
	lost := make(chan []string)
	errs := make(chan error, 4)
	go k.run(context.Background(), clk, stop, lost, errs)
	defer close(stop)
	deadline := time.After(10 * time.Second)
	for {
		if clk.Waiting() > 0 {
			// One renewal period at a time, only while the keeper waits for it (t0+1s, t0+2s).
			clk.Advance(ttl / leaseRenewDivisor)
		}
		select {
		case got := <-lost:
			if now := clk.Now(); !slices.Equal(got, []string{key}) || now.Before(t0.Add(ttl*2/3)) || !now.Before(t0.Add(ttl)) {
				t.Fatalf("lost %q at t0%+v, want [%s] between t0+2s and t0+3s", got, now.Sub(t0), key)
			}
			if len(errs) == 0 {
				t.Error("the failed renewals were not reported")
			}
			return
		case <-deadline:
			t.Fatal("the keeper never reported the lapsing lease")
		case <-time.After(time.Millisecond):
		}
	}
}

// Issue 31: the default lease batch follows from the delay and the concurrency, so that a
// worker holds the origins its requests keep busy at the politeness limit, and no more.
func TestDefaultLeaseBatchFollowsDelayAndConcurrency(t *testing.T) {
	for _, c := range []struct {
		concurrency int
		delay       time.Duration
		answer      time.Duration
		want        int
	}{
		{16, 0, leaseAnswerTime, 16},                        // no gap: one origin per request in flight
		{16, time.Second, leaseAnswerTime, 80},              // 1 s + 250 ms answers: 5 origins per request
		{16, 2 * time.Second, leaseAnswerTime, 144},         // 2 s: 9
		{100, 100 * time.Millisecond, leaseAnswerTime, 200}, // part of an answer time still needs a second origin
		{512, time.Second, leaseAnswerTime, 2560},
		{512, 2 * time.Second, leaseAnswerTime, 4608},
		{512, 2 * time.Second, 200 * time.Millisecond, 5632}, // politebench's web: 5,000 origins fit
		{512, 2 * time.Second, time.Millisecond, DefaultLeaseBatch},
	} {
		if got := defaultLeaseBatch(c.concurrency, c.delay, c.answer); got != c.want {
			t.Errorf("defaultLeaseBatch(%d, %v, %v) = %d, want %d", c.concurrency, c.delay, c.answer, got, c.want)
		}
	}
	o := Options{Concurrency: 16, Frontier: frontier.Options{Delay: 2 * time.Second}}.withDefaults()
	if o.LeaseBatch != 144 {
		t.Errorf("Options.withDefaults: LeaseBatch %d at concurrency 16 and a 2 s delay, want 144", o.LeaseBatch)
	}
}

// Issue 31: the batch a worker sizes for itself follows the answer times it meets, not an
// assumed one (answers of 200 ms at a 2 s delay: 5,000 origins need 5,632 origins' room at 512
// requests in flight, and the 4,608 sized for 250 ms answers left 392 origins to a second wave,
// 46 s more); and an acquire adds at most what the requests can start at once, so that workers
// starting together share the origins.
func TestIssue31LeaseBatchFollowsTheAnswerTimes(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 40)
	k := newLeaseKeeper(s, "a", keeperTTL, 0)
	k.follow(4, 2*time.Second)
	if got := k.Batch(); got != 36 {
		t.Fatalf("batch before any answer = %d, want 4 x (2 s + 250 ms) / 250 ms = 36", got)
	}
	for range 10 * answerWeight {
		k.Answered(100 * time.Millisecond)
	}
	if got := k.Batch(); got != 84 {
		t.Errorf("batch after answers of 100 ms = %d, want 4 x (2 s + 100 ms) / 100 ms = 84", got)
	}
	until := t0.Add(time.Hour)
	got, err := k.Acquire(ctx, t0, until)
	if err != nil || !slices.Equal(got, origins(0, 4)) {
		t.Fatalf("Acquire = %q, %v; want the 4 the requests can start", got, err)
	}
	b := newLeaseKeeper(s, "b", keeperTTL, 0)
	b.follow(4, 2*time.Second)
	if got, err := b.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(4, 8)) {
		t.Errorf("another worker's Acquire = %q, %v; want the next 4", got, err)
	}
	for range 20 {
		if _, err := k.Acquire(ctx, t0, until); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(k.Held()); got != 40-4 {
		t.Errorf("held after more acquires: %d, want every origin b does not hold, 36", got)
	}
}

// Issue 31 part 3 (and issue 12's bounded batches): an acquire never leaves the store holding
// origins for this process beyond its batch. The store grants up to room + held origins, and
// when some held origins have nothing due (their pages fetched, the origin not handed back
// yet) it grants new ones in their place: those past the batch are handed back at once, free
// for the other workers, not kept leased in the store and renewed while nobody crawls them.
func TestIssue31AcquireHandsBackWhatIsPastTheBatch(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 10)
	a := newLeaseKeeper(s, "a", keeperTTL, 5)
	for _, o := range origins(6, 10) { // due after the acquire's until
		if ok, err := a.Lease(ctx, o, t0); err != nil || !ok {
			t.Fatalf("Lease(%s) = %v, %v", o, ok, err)
		}
	}
	until := t0.Add(3 * time.Second) // o0 ... o3 due
	if got, err := a.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(0, 1)) {
		t.Fatalf("Acquire = %q, %v; want the one the batch has room for, o0", got, err)
	}
	b := newLeaseKeeper(s, "b", keeperTTL, 10)
	if got, err := b.Acquire(ctx, t0, until); err != nil || !slices.Equal(got, origins(1, 4)) {
		t.Errorf("another worker's Acquire = %q, %v; want %q, which a has no room for", got, err, origins(1, 4))
	}
}

// leaseHook is a shared store whose LeaseOrigin runs after, once, when the store has granted the
// lease and before the keeper hears of it: the moment at which the loader's acquire lane may run
// beside one of its loads (issue 31).
type leaseHook struct {
	store.Store
	after func()
}

func (h *leaseHook) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	ok, err := h.Store.LeaseOrigin(ctx, owner, key, now, ttl)
	if f := h.after; f != nil {
		h.after = nil
		f()
	}
	return ok, err
}

// Issue 12 and 31, checked by TestClusterOfThreeOnALatencyWeb's "robots.txt once per origin": an
// Acquire that runs while a Lease of the same worker is under way finds that origin among the
// owner's own in the store, and must neither hand it back as past the batch (the worker then
// crawls an origin it no longer holds: its robots.txt is fetched again by the next owner, and its
// commits are refused) nor count it fresh (it would be loaded twice).
func TestIssue31AcquireBesideALeaseKeepsIt(t *testing.T) {
	ctx := context.Background()
	s := sharedStore(t, 10)
	hook := &leaseHook{Store: s}
	a := newLeaseKeeper(hook, "a", keeperTTL, 3)
	if ok, err := a.Lease(ctx, "http://o9.test", t0); err != nil || !ok { // due after until below
		t.Fatalf("Lease(o9) = %v, %v", ok, err)
	}
	var fresh []string
	var acqErr error
	hook.after = func() { fresh, acqErr = a.Acquire(ctx, t0, t0.Add(3*time.Second)) }
	if ok, err := a.Lease(ctx, "http://o1.test", t0); err != nil || !ok {
		t.Fatalf("Lease(o1) = %v, %v", ok, err)
	}
	if acqErr != nil {
		t.Fatal(acqErr)
	}
	if slices.Contains(fresh, "http://o1.test") {
		t.Errorf("Acquire beside Lease(o1) = %q: o1 counted fresh, so loaded twice", fresh)
	}
	b := newLeaseKeeper(s, "b", keeperTTL, 10)
	if ok, err := b.Lease(ctx, "http://o1.test", t0); err != nil || ok {
		t.Errorf("another worker's Lease(o1) = %v, %v; want refused: a holds it", ok, err)
	}
	if held := a.Held(); !slices.Contains(held, "http://o1.test") {
		t.Errorf("a holds %q, want o1 among them", held)
	}
}
