package storetest_test

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// sharedRef makes a one-process store (SQLite) a store.Shared for the suite's own tests: leases
// kept in memory with owners and expiry, and Commit fenced on Batch.Owner. It is the reference
// the Shared/ checks must pass, and, with one bug set, the mutants they must catch. The real
// shared store (PostgreSQL) runs the same checks in its own package.
type sharedRef struct {
	store.Store
	mu     *sync.Mutex
	leases map[string]refLease
	bug    sharedBug
}

type refLease struct {
	owner   string
	expires time.Time
}

// sharedBug is the one behaviour a mutant of sharedRef gets wrong.
type sharedBug int

const (
	noBug           sharedBug = iota
	grantAll                  // leases granted whatever another owner holds
	noRenew                   // renewal leaves the expiry as it was
	neverExpire               // a lease is live forever
	noFence                   // Commit ignores Batch.Owner
	nextDueNoLeases           // NextDue counts every origin as free
)

var _ store.Shared = sharedRef{}

func newSharedRef(s store.Store, bug sharedBug) sharedRef {
	return sharedRef{Store: s, mu: &sync.Mutex{}, leases: map[string]refLease{}, bug: bug}
}

// grant gives owner key unless another owner's lease is live; under mu.
func (r sharedRef) grant(owner, key string, now time.Time, ttl time.Duration) bool {
	l, ok := r.leases[key]
	if ok && l.owner != owner && (l.expires.After(now) || r.bug == neverExpire) && r.bug != grantAll {
		return false
	}
	if ok && l.owner == owner && r.bug == noRenew {
		return true
	}
	r.leases[key] = refLease{owner: owner, expires: now.Add(ttl)}
	return true
}

func (r sharedRef) renewAll(owner string, now time.Time, ttl time.Duration) {
	if r.bug == noRenew {
		return
	}
	for k, l := range r.leases {
		if l.owner == owner {
			r.leases[k] = refLease{owner: owner, expires: now.Add(ttl)}
		}
	}
}

func (r sharedRef) LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
	due, err := r.Store.LeaseOrigins(ctx, owner, now, until, ttl, 1<<30) // every due origin, in order
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.renewAll(owner, now, ttl)
	var out []string
	for _, k := range due {
		if len(out) == max {
			break
		}
		if r.grant(owner, k, now, ttl) {
			out = append(out, k)
		}
	}
	return out, nil
}

func (r sharedRef) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.grant(owner, key, now, ttl), nil
}

func (r sharedRef) RenewOrigins(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var held []string
	for _, k := range keys {
		if l, ok := r.leases[k]; ok && l.owner == owner {
			held = append(held, k)
			if r.bug != noRenew {
				r.leases[k] = refLease{owner: owner, expires: now.Add(ttl)}
			}
		}
	}
	return held, nil
}

func (r sharedRef) ReleaseOrigins(ctx context.Context, owner string, keys []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, l := range r.leases {
		if l.owner == owner && (keys == nil || slices.Contains(keys, k)) {
			delete(r.leases, k)
		}
	}
	return nil
}

func (r sharedRef) NextDue(ctx context.Context, owner string, now time.Time) (time.Time, error) {
	due := map[string]time.Time{} // each origin's earliest due URL
	if err := r.Store.EachURL(ctx, func(u store.URL) error {
		if d, ok := due[u.Origin]; !u.NextAt.IsZero() && (!ok || u.NextAt.Before(d)) {
			due[u.Origin] = u.NextAt
		}
		return nil
	}); err != nil {
		return time.Time{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var next time.Time
	for k, d := range due {
		if l, ok := r.leases[k]; ok && l.expires.After(now) && r.bug != nextDueNoLeases {
			if l.owner == owner {
				continue
			}
			if l.expires.After(d) {
				d = l.expires
			}
		}
		if next.IsZero() || d.Before(next) {
			next = d
		}
	}
	return next, nil
}

// Commit fences b.Owner, holding mu so that no lease changes hands during the commit.
func (r sharedRef) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	if b.Owner == "" || r.bug == noFence {
		return r.Store.Commit(ctx, b)
	}
	want := map[string]bool{}
	for _, u := range b.Updates {
		want[u.Origin] = true
	}
	for _, o := range b.Origins {
		want[o.Key] = true
	}
	if len(b.Documents) > 0 {
		docs := map[int64]bool{}
		for _, d := range b.Documents {
			docs[d.URLID] = true
		}
		if err := r.Store.EachURL(ctx, func(u store.URL) error {
			if docs[u.ID] {
				want[u.Origin] = true
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	lost := &store.LeaseLostError{Owner: b.Owner}
	for k := range want {
		if l, ok := r.leases[k]; !ok || l.owner != b.Owner {
			lost.Origins = append(lost.Origins, k)
		}
	}
	if len(lost.Origins) > 0 {
		slices.Sort(lost.Origins)
		return nil, lost
	}
	return r.Store.Commit(ctx, b)
}
