package postgres_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Renewals and fenced commits at once (seen in clusterbench on main: "lease origins: renew
// leases: deadlock detected", which ended a crawl). A worker's lease renewal (LeaseOrigins renews
// every lease it holds) runs while its writer commits fenced batches over the same origins; the
// commit's fence locks the lease rows in key order, so the renewal must too, or the two
// deadlock, and a renewal that PostgreSQL still aborts as a deadlock victim must be run again
// rather than fail the crawl. Leases are made in reverse key order, so that the table's physical
// order is not the key order.
func TestRenewalAndFencedCommitsDoNotFail(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const origins, rounds = 200, 40
	var b store.Batch
	keys := make([]string, origins)
	for i := range origins {
		keys[i] = fmt.Sprintf("http://o%03d.test", i)
		b.New = append(b.New, store.NewURL{URL: keys[i] + "/", Origin: keys[i], State: store.StateQueued, DiscoveredAt: t0})
	}
	added, err := s.Commit(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	const owner, ttl = "w", time.Hour
	for i := origins - 1; i >= 0; i-- {
		if ok, err := s.LeaseOrigin(t.Context(), owner, keys[i], t0, ttl); err != nil || !ok {
			t.Fatalf("lease %s: %v %v", keys[i], ok, err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*rounds)
	wg.Go(func() {
		for r := range rounds {
			var b store.Batch
			b.Owner = owner
			for i := range added {
				u := added[(i*7+r)%len(added)] // a different order each round
				u.Attempts = r + 1
				b.Updates = append(b.Updates, u)
			}
			if _, err := s.Commit(t.Context(), b); err != nil {
				errs <- fmt.Errorf("commit round %d: %w", r, err)
			}
		}
	})
	wg.Go(func() {
		for r := range rounds {
			now := t0.Add(time.Duration(r) * time.Second)
			if _, err := s.LeaseOrigins(t.Context(), owner, now, now, ttl, 0); err != nil {
				errs <- fmt.Errorf("renewal round %d: %w", r, err)
			}
			if _, err := s.RenewOrigins(t.Context(), owner, keys, now, ttl); err != nil {
				errs <- fmt.Errorf("renew given keys, round %d: %w", r, err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
