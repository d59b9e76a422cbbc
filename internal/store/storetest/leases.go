package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// leaseTTL is the lease every lease check asks for; its expiry is never reached.
const leaseTTL = time.Hour

// leaseFixture fills s with origins due at different times (b earliest, then c, a, d) and with
// origins that are never due: one known only by an out-of-scope URL, one whose only URL was
// fetched and is not due again, one with a record and no URLs.
func leaseFixture(t *testing.T, s store.Store) {
	t.Helper()
	added := commit(t, s, store.Batch{
		New: []store.NewURL{
			queued("http://a.test/", 0, t0.Add(3*time.Minute)),
			queued("http://b.test/later", 0, t0.Add(10*time.Minute)),
			queued("http://b.test/", 0, t0.Add(time.Minute)), // b's earliest due is this one, not its first URL's
			queued("http://c.test/", 0, t0.Add(2*time.Minute)),
			queued("http://d.test/", 0, t0.Add(time.Hour)),
			outOfScope("http://e.test/", "outside --scope host", t0),
			queued("http://f.test/", 0, t0),
		},
		Origins: []store.Origin{fullOrigin("http://g.test")},
	})
	done := added[6]
	done.State, done.Status, done.FetchedAt, done.NextAt = store.StateFetched, 200, t0, time.Time{}
	commit(t, s, store.Batch{Updates: []store.URL{done}})
}

// lease calls LeaseOrigins for owner at t0, failing the test on an error.
func lease(t *testing.T, s store.Store, owner string, until time.Time, n int) []string {
	t.Helper()
	keys, err := s.LeaseOrigins(t.Context(), owner, t0, until, leaseTTL, n)
	if err != nil {
		t.Fatalf("LeaseOrigins(%q, until t0%+v, max %d): %v", owner, until.Sub(t0), n, err)
	}
	return keys
}

// store.Store.LeaseOrigins: origins "that have URLs due at or before until", "earliest due
// first", an origin's due time being its earliest URL's.
func testLeaseOrder(t *testing.T, s store.Store) {
	leaseFixture(t, s)
	want := []string{"http://b.test", "http://c.test", "http://a.test"}
	if got := lease(t, s, "w1", t0.Add(5*time.Minute), 10); !slices.Equal(got, want) {
		t.Errorf("LeaseOrigins = %q, want %q", got, want)
	}
}

// store.Store.LeaseOrigins: "due at or before until"; an origin with no URL due (out of scope,
// fetched and not due again, or no URLs) is never leased by it.
func testLeaseUntil(t *testing.T, s store.Store) {
	leaseFixture(t, s)
	for _, c := range []struct {
		until time.Time
		want  []string
	}{
		{t0, nil},
		{t0.Add(time.Minute - time.Microsecond), nil},
		{t0.Add(time.Minute), []string{"http://b.test"}}, // due exactly at until
		{t0.Add(3*time.Minute - time.Microsecond), []string{"http://b.test", "http://c.test"}},
		{t0.Add(3 * time.Minute), []string{"http://b.test", "http://c.test", "http://a.test"}},
		{t0.AddDate(10, 0, 0), []string{"http://b.test", "http://c.test", "http://a.test", "http://d.test"}},
	} {
		if got := lease(t, s, "w1", c.until, 10); !slices.Equal(got, c.want) {
			t.Errorf("LeaseOrigins until t0%+v = %q, want %q", c.until.Sub(t0), got, c.want)
		}
	}
}

// store.Store.LeaseOrigins: "up to max origins", the earliest due ones. Asking again with a
// larger max renews the leases already held and adds the next ones.
func testLeaseMax(t *testing.T, s store.Store) {
	leaseFixture(t, s)
	all := []string{"http://b.test", "http://c.test", "http://a.test", "http://d.test"}
	for _, n := range []int{1, 2, 3, 4, 10} {
		want := all[:min(n, len(all))]
		if got := lease(t, s, "w1", t0.AddDate(1, 0, 0), n); !slices.Equal(got, want) {
			t.Errorf("LeaseOrigins max %d = %q, want %q", n, got, want)
		}
	}
}

// store.Store.LeaseOrigin: granted "unless another live owner holds it", renewed by asking again,
// free for another owner once released (ReleaseOrigins with keys, or nil for all); an origin the
// crawler has only just discovered can be leased before any of its URLs is stored.
func testLeaseOne(t *testing.T, s store.Store) {
	leaseFixture(t, s)
	ctx := t.Context()
	grant := func(owner, key string) {
		t.Helper()
		ok, err := s.LeaseOrigin(ctx, owner, key, t0, leaseTTL)
		if err != nil || !ok {
			t.Fatalf("LeaseOrigin(%q, %q) = %v, %v; want granted", owner, key, ok, err)
		}
	}
	grant("w1", "http://a.test")
	grant("w1", "http://a.test") // renewal
	grant("w1", "http://new.test")
	if err := s.ReleaseOrigins(ctx, "w1", []string{"http://a.test"}); err != nil {
		t.Fatalf("ReleaseOrigins(w1, [a]): %v", err)
	}
	grant("w2", "http://a.test")
	if err := s.ReleaseOrigins(ctx, "w2", nil); err != nil {
		t.Fatalf("ReleaseOrigins(w2, nil): %v", err)
	}
	if err := s.ReleaseOrigins(ctx, "w1", nil); err != nil {
		t.Fatalf("ReleaseOrigins(w1, nil): %v", err)
	}
	grant("w3", "http://new.test")
	if err := s.ReleaseOrigins(ctx, "w3", nil); err != nil {
		t.Fatalf("ReleaseOrigins(w3, nil): %v", err)
	}
	want := []string{"http://b.test", "http://c.test", "http://a.test"}
	if got := lease(t, s, "w4", t0.Add(5*time.Minute), 10); !slices.Equal(got, want) {
		t.Errorf("after every lease was released, LeaseOrigins(w4) = %q, want %q", got, want)
	}
}
