package crawler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fractle/mandelbot/internal/clock"
	"github.com/fractle/mandelbot/internal/store"
)

// Leases of a crawl process on a shared store (issue 12). A process takes origins in bounded
// batches, renews its leases at a fraction of their TTL from a goroutine of their own (never the
// scheduler), and learns of a lost lease two ways: the renewal does not return it (another
// process took it over after this one failed to renew in time), or a fenced commit is refused
// (store.ErrLeaseLost). Either way the origin's work must be dropped locally.
const (
	// MinLeaseTTL is the shortest lease a crawl accepts (Options.LeaseTTL, --lease-ttl): the
	// renewal runs every TTL/leaseRenewDivisor, and must have time to reach the database.
	MinLeaseTTL = time.Second
	// leaseRenewDivisor: leases are renewed every TTL/leaseRenewDivisor, so that two renewals in
	// a row may fail (a slow database, a pause of the process) before a lease expires; and the
	// crawl stops sending to an origin TTL/leaseRenewDivisor before its lease would lapse.
	leaseRenewDivisor = 3
)

// leaseKeeper tracks the origins this process holds and keeps their leases. It is safe for
// concurrent use: the scheduler (or the loader) reports grants and releases, its run goroutine
// renews. The zero value is not usable; see newLeaseKeeper.
type leaseKeeper struct {
	leases store.Leases
	shared store.Shared // nil: the store grants every lease (one process); renewal is a no-op
	owner  string
	ttl    time.Duration
	// step bounds the origins one Acquire adds (0: no bound): see acquireStep.
	step int

	mu sync.Mutex
	// batch is the most origins held at once; sizer, when set, resizes it from the answer
	// times (Answered).
	batch int
	sizer *batchSizer
	// held maps each origin held to the expiry of its lease as last confirmed by the store
	// (grant or renewal). leasing counts the Lease calls under way, each holding a place in the
	// batch until the store answers (the loader runs several at once), and inLease names their
	// origins: an Acquire running beside them finds such an origin among the owner's own in the
	// store, and leaves it to its Lease (issue 31).
	held    map[string]time.Time
	leasing int
	inLease map[string]int
}

// newLeaseKeeper returns a keeper of owner's leases on st, each lasting ttl unless renewed,
// holding at most batch origins at once (0: DefaultLeaseBatch).
func newLeaseKeeper(st store.Leases, owner string, ttl time.Duration, batch int) *leaseKeeper {
	if batch <= 0 {
		batch = DefaultLeaseBatch
	}
	sh, _ := st.(store.Shared)
	return &leaseKeeper{leases: st, shared: sh, owner: owner, ttl: ttl, batch: batch, held: map[string]time.Time{},
		inLease: map[string]int{}}
}

// follow makes the batch the origins concurrency requests keep busy behind delay at the answer
// times the crawl meets (Answered; defaultLeaseBatch until then), and bounds each Acquire to
// acquireStep(concurrency) new origins. For a crawl whose batch was not given (Options.LeaseBatch
// 0). Call it before the keeper is shared.
func (k *leaseKeeper) follow(concurrency int, delay time.Duration) {
	k.sizer = newBatchSizer(concurrency, delay)
	k.batch, k.step = k.sizer.batch(), acquireStep(concurrency)
}

// Answered notes that a request was answered after took (the crawl clock): the batch follows
// (follow).
func (k *leaseKeeper) Answered(took time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sizer != nil {
		k.sizer.answered(took)
		k.batch = k.sizer.batch()
	}
}

// Batch is the most origins the keeper holds at once, now.
func (k *leaseKeeper) Batch() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.batch
}

// margin is how long before a lease's confirmed expiry the crawl stops sending to its origin.
func (k *leaseKeeper) margin() time.Duration { return k.ttl / leaseRenewDivisor }

// Lease leases origin key (one the crawl discovered), unless the batch is full; ok reports
// whether the process holds it now. On a store that grants every lease the batch is not checked.
func (k *leaseKeeper) Lease(ctx context.Context, key string, now time.Time) (ok bool, err error) {
	k.mu.Lock()
	_, mine := k.held[key]
	full := k.shared != nil && len(k.held)+k.leasing >= k.batch
	if !full && !mine {
		k.leasing++
		k.inLease[key]++
	}
	k.mu.Unlock()
	if full && !mine {
		return false, nil
	}
	ok, err = k.leases.LeaseOrigin(ctx, k.owner, key, now, k.ttl)
	k.mu.Lock()
	defer k.mu.Unlock()
	if !mine {
		k.leasing--
		if k.inLease[key]--; k.inLease[key] == 0 {
			delete(k.inLease, key)
		}
	}
	if err != nil || !ok {
		return false, err
	}
	k.held[key] = now.Add(k.ttl)
	return true, nil
}

// groupLeaser is a store that leases several given origins in one statement
// (postgres.Store.LeaseEach): the loader leases the origins of the loads that queued up together
// at once (issue 31).
type groupLeaser interface {
	LeaseEach(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error)
}

// Grouped reports whether LeaseEach takes its origins in one statement of the store.
func (k *leaseKeeper) Grouped() bool {
	_, ok := k.leases.(groupLeaser)
	return ok && k.shared != nil
}

// LeaseEach is Lease of each of keys (distinct), in order, as far as the batch has room, in one
// statement of the store: it reports for each key whether the process holds it now. Only for a
// keeper that is Grouped (the loader asks); any other gets an error.
func (k *leaseKeeper) LeaseEach(ctx context.Context, keys []string, now time.Time) (map[string]bool, error) {
	gl, grouped := k.leases.(groupLeaser)
	if !grouped || k.shared == nil {
		return nil, errors.New("crawler: LeaseEach on a store that does not lease origins together")
	}
	ok := make(map[string]bool, len(keys))
	var ask, fresh []string
	k.mu.Lock()
	for _, key := range keys {
		if _, mine := k.held[key]; mine {
			ask = append(ask, key)
		} else if len(k.held)+k.leasing < k.batch {
			k.leasing++
			k.inLease[key]++
			ask, fresh = append(ask, key), append(fresh, key)
		}
	}
	k.mu.Unlock()
	granted, err := gl.LeaseEach(ctx, k.owner, ask, now, k.ttl)
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range fresh {
		k.leasing--
		if k.inLease[key]--; k.inLease[key] == 0 {
			delete(k.inLease, key)
		}
	}
	if err != nil {
		return nil, err
	}
	for _, key := range granted {
		k.held[key] = now.Add(k.ttl)
		ok[key] = true
	}
	return ok, nil
}

// Safe reports whether the crawl may still send a request to origin key at now: the process
// holds its lease, and the lease's confirmed expiry is more than TTL/leaseRenewDivisor away
// (issue 12: a process whose renewals fail stops before another may take the origin over). On a
// store that grants every lease it is always true.
func (k *leaseKeeper) Safe(key string, now time.Time) bool {
	if k.shared == nil {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	exp, ok := k.held[key]
	return ok && exp.Sub(now) > k.margin()
}

// Room reports whether the batch has room for another origin.
func (k *leaseKeeper) Room() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.held)+k.leasing < k.batch
}

// lapsing forgets and returns, sorted, the origins whose lease's confirmed expiry is within
// TTL/leaseRenewDivisor of now (renewals failed): the crawl must stop sending to them.
func (k *leaseKeeper) lapsing(now time.Time) []string {
	if k.shared == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for key, exp := range k.held {
		if exp.Sub(now) <= k.margin() {
			out = append(out, key)
			delete(k.held, key)
		}
	}
	slices.Sort(out)
	return out
}

// Acquire leases origins due by until, as many as the batch has room for, and returns the new
// ones, earliest due first (store.Leases.LeaseOrigins, which also renews every lease held).
func (k *leaseKeeper) Acquire(ctx context.Context, now, until time.Time) ([]string, error) {
	k.mu.Lock()
	room := k.batch - len(k.held) - k.leasing
	if k.step > 0 {
		room = min(room, k.step)
	}
	k.mu.Unlock()
	if room <= 0 {
		return nil, nil
	}
	keys, err := k.leases.LeaseOrigins(ctx, k.owner, now, until, k.ttl, room+k.heldCount())
	if err != nil {
		return nil, fmt.Errorf("crawl: lease origins: %w", err)
	}
	k.mu.Lock()
	var fresh, past []string
	for _, key := range keys {
		if _, ok := k.held[key]; ok {
			k.held[key] = now.Add(k.ttl) // renewed by LeaseOrigins
		} else if k.inLease[key] > 0 {
			continue // granted to a Lease under way, which records it and loads the origin
		} else if len(k.held)+k.leasing < k.batch && len(fresh) < room {
			k.held[key] = now.Add(k.ttl)
			fresh = append(fresh, key)
		} else {
			past = append(past, key)
		}
	}
	k.mu.Unlock()
	// The store grants up to room + held, new origins in the place of held ones with nothing
	// due: those past the batch go back at once, or they would stay leased, and renewed by
	// every LeaseOrigins, while nobody crawls them (issue 31).
	if len(past) > 0 {
		if err := k.leases.ReleaseOrigins(ctx, k.owner, past); err != nil {
			return fresh, fmt.Errorf("crawl: hand back %d leases past the batch: %w", len(past), err)
		}
	}
	return fresh, nil
}

func (k *leaseKeeper) heldCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.held)
}

// Granted records a lease granted at now outside Acquire and Lease.
func (k *leaseKeeper) Granted(key string, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.held[key] = now.Add(k.ttl)
}

// Release gives up the leases of keys (an origin with nothing left to do in this run, or one
// dropped) and forgets them.
func (k *leaseKeeper) Release(ctx context.Context, keys []string) error {
	k.mu.Lock()
	for _, key := range keys {
		delete(k.held, key)
	}
	k.mu.Unlock()
	if err := k.leases.ReleaseOrigins(ctx, k.owner, keys); err != nil {
		return fmt.Errorf("crawl: release %d leases: %w", len(keys), err)
	}
	return nil
}

// Held returns the origins this process holds, sorted.
func (k *leaseKeeper) Held() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	keys := make([]string, 0, len(k.held))
	for key := range k.held {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

// Lost forgets keys whose leases were lost (a fenced commit was refused).
func (k *leaseKeeper) Lost(keys []string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range keys {
		delete(k.held, key)
	}
}

// Renew extends every lease held to ttl from now and returns, sorted, the origins whose lease
// was lost, forgetting them. On a store that grants every lease it does nothing.
func (k *leaseKeeper) Renew(ctx context.Context, now time.Time) ([]string, error) {
	if k.shared == nil {
		return nil, nil
	}
	keys := k.Held()
	if len(keys) == 0 {
		return nil, nil
	}
	still, err := k.shared.RenewOrigins(ctx, k.owner, keys, now, k.ttl)
	if err != nil {
		return nil, fmt.Errorf("crawl: renew %d leases: %w", len(keys), err)
	}
	kept := make(map[string]bool, len(still))
	for _, key := range still {
		kept[key] = true
	}
	var lost []string
	k.mu.Lock()
	for _, key := range keys {
		if _, ok := k.held[key]; !ok {
			continue // released or lost while the renewal ran
		}
		if kept[key] {
			k.held[key] = now.Add(k.ttl)
		} else {
			lost = append(lost, key)
			delete(k.held, key)
		}
	}
	k.mu.Unlock()
	return lost, nil
}

// run renews the leases every ttl/leaseRenewDivisor of clk until stop is closed, and sends the
// origins it finds lost on lost (the scheduler must drop them); it closes lost when it returns.
// A renewal that fails is reported on errs (nil: dropped) and tried again at the next period; a
// renewal may take at most one period. After each attempt, the origins whose confirmed expiry is
// within ttl/leaseRenewDivisor are lost too (lapsing): the crawl stops sending to an origin
// before its lease could lapse.
func (k *leaseKeeper) run(ctx context.Context, clk clock.Clock, stop <-chan struct{}, lost chan<- []string, errs chan<- error) {
	defer close(lost)
	if k.shared == nil {
		return
	}
	every := k.ttl / leaseRenewDivisor
	for {
		ch, cancel := clk.At(clk.Now().Add(every), false)
		select {
		case <-stop:
			cancel()
			return
		case <-ctx.Done():
			cancel()
			return
		case <-ch:
		}
		rctx, cancelRenew := context.WithTimeout(ctx, every)
		keys, err := k.Renew(rctx, clk.Now())
		cancelRenew()
		keys = append(keys, k.lapsing(clk.Now())...)
		if err != nil && errs != nil {
			select {
			case errs <- err:
			default:
			}
		}
		if len(keys) > 0 {
			select {
			case lost <- keys:
			case <-stop:
				return
			}
		}
	}
}

// commitFenced commits b as owner (store.Batch.Owner). When the store refuses it because owner
// lost the lease of some origins, it commits the rest of the batch without their updates,
// records and documents (and their documents' links), and returns those origins, sorted: their
// outcomes are dropped, as another process now crawls them. New URLs are always kept: adding a
// URL that may be known changes nothing.
func commitFenced(ctx context.Context, st store.Queue, b store.Batch, owner string) (added []store.URL, lost []string, err error) {
	b.Owner = owner
	for {
		added, err = st.Commit(ctx, b)
		var lle *store.LeaseLostError
		if !errors.As(err, &lle) || len(lle.Origins) == 0 {
			slices.Sort(lost)
			return added, lost, err
		}
		if !slices.ContainsFunc(lle.Origins, func(o string) bool { return !slices.Contains(lost, o) }) {
			// Refused again for origins already stripped: a document of theirs whose URL the
			// batch does not update. Nothing more can be taken out.
			slices.Sort(lost)
			return nil, lost, err
		}
		lost = append(lost, lle.Origins...)
		b = withoutOrigins(b, lle.Origins)
	}
}

// withoutOrigins returns b without what it writes for origins: their URLs' updates and
// documents (with the documents' links) and their records.
func withoutOrigins(b store.Batch, origins []string) store.Batch {
	drop := make(map[string]bool, len(origins))
	for _, o := range origins {
		drop[o] = true
	}
	out := store.Batch{New: b.New, Owner: b.Owner}
	gone := map[int64]bool{}
	for _, u := range b.Updates {
		if drop[u.Origin] {
			gone[u.ID] = true
			continue
		}
		out.Updates = append(out.Updates, u)
	}
	for _, o := range b.Origins {
		if !drop[o.Key] {
			out.Origins = append(out.Origins, o)
		}
	}
	for _, d := range b.Documents {
		if !gone[d.URLID] {
			out.Documents = append(out.Documents, d)
		}
	}
	for _, l := range b.Links {
		if !gone[l.FromID] {
			out.Links = append(out.Links, l)
		}
	}
	return out
}
