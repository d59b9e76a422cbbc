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
	// DefaultLeaseBatch is the most origins a process holds at once when Options say nothing:
	// enough to keep DefaultConcurrency requests busy behind per-origin delays, few enough that
	// the other processes of a cluster find origins to take.
	DefaultLeaseBatch = 256
	// leaseRenewDivisor: leases are renewed every TTL/leaseRenewDivisor, so that two renewals in
	// a row may fail (a slow database, a pause of the process) before a lease expires.
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
	batch  int

	mu   sync.Mutex
	held map[string]bool
}

// newLeaseKeeper returns a keeper of owner's leases on st, each lasting ttl unless renewed,
// holding at most batch origins at once (0: DefaultLeaseBatch).
func newLeaseKeeper(st store.Leases, owner string, ttl time.Duration, batch int) *leaseKeeper {
	if batch <= 0 {
		batch = DefaultLeaseBatch
	}
	sh, _ := st.(store.Shared)
	return &leaseKeeper{leases: st, shared: sh, owner: owner, ttl: ttl, batch: batch, held: map[string]bool{}}
}

// Acquire leases origins due by until, as many as the batch has room for, and returns the new
// ones, earliest due first (store.Leases.LeaseOrigins, which also renews every lease held).
func (k *leaseKeeper) Acquire(ctx context.Context, now, until time.Time) ([]string, error) {
	k.mu.Lock()
	room := k.batch - len(k.held)
	k.mu.Unlock()
	if room <= 0 {
		return nil, nil
	}
	keys, err := k.leases.LeaseOrigins(ctx, k.owner, now, until, k.ttl, room+k.heldCount())
	if err != nil {
		return nil, fmt.Errorf("crawl: lease origins: %w", err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var fresh []string
	for _, key := range keys {
		if !k.held[key] && len(k.held) < k.batch {
			k.held[key] = true
			fresh = append(fresh, key)
		}
	}
	return fresh, nil
}

func (k *leaseKeeper) heldCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.held)
}

// Granted records a lease granted outside Acquire (store.Leases.LeaseOrigin, by the loader for
// an origin discovered during the run).
func (k *leaseKeeper) Granted(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.held[key] = true
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
	for _, key := range keys {
		if !kept[key] {
			lost = append(lost, key)
		}
	}
	k.Lost(lost)
	return lost, nil
}

// run renews the leases every ttl/leaseRenewDivisor of clk until stop is closed, and sends the
// origins it finds lost on lost (the scheduler must drop them); it closes lost when it returns.
// A renewal that fails is reported on errs (nil: dropped) and tried again at the next period: a
// lease survives leaseRenewDivisor-1 failed renewals in a row.
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
		keys, err := k.Renew(ctx, clk.Now())
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
