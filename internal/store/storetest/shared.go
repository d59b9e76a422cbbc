package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// The checks of store.Shared: several processes on one store. They run only on stores that
// implement store.Shared (PostgreSQL); an embedded store used by one process (SQLite) may grant
// every lease, and is skipped.

// shared returns s as a store.Shared, or skips the test.
func shared(t *testing.T, s store.Store) store.Shared {
	t.Helper()
	sh, ok := s.(store.Shared)
	if !ok {
		t.Skip("the store is used by one process at a time (it does not implement store.Shared)")
	}
	return sh
}

// leaseOne calls LeaseOrigin at now, failing the test on an error.
func leaseOne(t *testing.T, s store.Leases, owner, key string, now time.Time) bool {
	t.Helper()
	ok, err := s.LeaseOrigin(t.Context(), owner, key, now, leaseTTL)
	if err != nil {
		t.Fatalf("LeaseOrigin(%q, %q, t0%+v): %v", owner, key, now.Sub(t0), err)
	}
	return ok
}

// renew calls RenewOrigins at now and returns the keys still held, sorted.
func renew(t *testing.T, s store.Shared, owner string, keys []string, now time.Time) []string {
	t.Helper()
	held, err := s.RenewOrigins(t.Context(), owner, keys, now, leaseTTL)
	if err != nil {
		t.Fatalf("RenewOrigins(%q, %q, t0%+v): %v", owner, keys, now.Sub(t0), err)
	}
	slices.Sort(held)
	return held
}

// leaseAt calls LeaseOrigins at now for every origin due within a year, up to n.
func leaseAt(t *testing.T, s store.Leases, owner string, now time.Time, n int) []string {
	t.Helper()
	keys, err := s.LeaseOrigins(t.Context(), owner, now, t0.AddDate(1, 0, 0), leaseTTL, n)
	if err != nil {
		t.Fatalf("LeaseOrigins(%q, t0%+v, max %d): %v", owner, now.Sub(t0), n, err)
	}
	return keys
}

// store.Leases: an origin is granted "unless another live owner holds it", by LeaseOrigins
// and LeaseOrigin alike, until its owner releases it (issue 12: two workers never crawl the same
// origin at once).
func testSharedExclusion(t *testing.T, s store.Store) {
	sh := shared(t, s)
	leaseFixture(t, s) // due: b, c, a, d
	if got, want := leaseAt(t, sh, "w1", t0, 2), []string{"http://b.test", "http://c.test"}; !slices.Equal(got, want) {
		t.Fatalf("LeaseOrigins(w1, max 2) = %q, want %q", got, want)
	}
	if got, want := leaseAt(t, sh, "w2", t0, 10), []string{"http://a.test", "http://d.test"}; !slices.Equal(got, want) {
		t.Errorf("LeaseOrigins(w2) = %q, want %q (b and c are w1's)", got, want)
	}
	for _, c := range []struct{ owner, key string }{{"w2", "http://b.test"}, {"w1", "http://a.test"}, {"w3", "http://c.test"}} {
		if leaseOne(t, sh, c.owner, c.key, t0) {
			t.Errorf("LeaseOrigin(%s, %s) granted an origin another owner holds", c.owner, c.key)
		}
	}
	if !leaseOne(t, sh, "w2", "http://new.test", t0) || leaseOne(t, sh, "w1", "http://new.test", t0) {
		t.Errorf("a newly discovered origin: want it granted to its first asker (w2) only")
	}
	if got := leaseAt(t, sh, "w3", t0, 10); len(got) != 0 {
		t.Errorf("LeaseOrigins(w3) = %q with every due origin held, want none", got)
	}
	if err := sh.ReleaseOrigins(t.Context(), "w1", []string{"http://b.test"}); err != nil {
		t.Fatal(err)
	}
	if !leaseOne(t, sh, "w2", "http://b.test", t0) {
		t.Errorf("LeaseOrigin(w2, b) refused after w1 released it")
	}
}

// store.Shared.RenewOrigins and store.Leases.LeaseOrigins ("calling it again renews the leases
// owner already holds"): a renewed lease lives ttl from the renewal, so another owner cannot
// take it when the first grant's ttl is over.
func testSharedRenewal(t *testing.T, s store.Store) {
	sh := shared(t, s)
	leaseFixture(t, s)
	if !leaseOne(t, sh, "w1", "http://a.test", t0) {
		t.Fatal("LeaseOrigin(w1, a) refused on a free origin")
	}
	if got := renew(t, sh, "w1", []string{"http://a.test", "http://b.test"}, t0.Add(leaseTTL/2)); !slices.Equal(got, []string{"http://a.test"}) {
		t.Errorf("RenewOrigins(w1, [a b]) = %q, want [http://a.test] (b was never w1's)", got)
	}
	late := t0.Add(leaseTTL + leaseTTL/4) // past the grant's expiry, before the renewal's
	if leaseOne(t, sh, "w2", "http://a.test", late) {
		t.Fatalf("LeaseOrigin(w2, a) at t0+%v took a lease renewed at t0+%v", late.Sub(t0), leaseTTL/2)
	}
	// LeaseOrigins renews what w1 holds even when it grants nothing new.
	if _, err := sh.LeaseOrigins(t.Context(), "w1", late, t0, leaseTTL, 1); err != nil {
		t.Fatal(err)
	}
	later := t0.Add(2 * leaseTTL) // past the first renewal's expiry, before the second's
	if leaseOne(t, sh, "w2", "http://a.test", later) {
		t.Errorf("LeaseOrigin(w2, a) at t0+%v took a lease LeaseOrigins(w1) renewed at t0+%v", later.Sub(t0), late.Sub(t0))
	}
	if got := leaseAt(t, sh, "w2", later, 10); slices.Contains(got, "http://a.test") {
		t.Errorf("LeaseOrigins(w2) = %q took w1's renewed lease", got)
	}
}

// A lease not renewed expires after its ttl and another owner takes it over (issue 12: "an
// expired lease taken over by another worker"); the loss is final for the old owner, whose
// renewal then fails. A lease that expired and that nobody took is still its owner's.
func testSharedExpiry(t *testing.T, s store.Store) {
	sh := shared(t, s)
	leaseFixture(t, s)
	for _, k := range []string{"http://a.test", "http://b.test", "http://c.test"} {
		if !leaseOne(t, sh, "w1", k, t0) {
			t.Fatalf("LeaseOrigin(w1, %s) refused on a free origin", k)
		}
	}
	if leaseOne(t, sh, "w2", "http://a.test", t0.Add(leaseTTL-time.Microsecond)) {
		t.Errorf("LeaseOrigin(w2, a) took w1's lease before it expired")
	}
	expired := t0.Add(leaseTTL)
	if !leaseOne(t, sh, "w2", "http://a.test", expired) {
		t.Fatalf("LeaseOrigin(w2, a) refused when w1's lease had expired")
	}
	if got := leaseAt(t, sh, "w3", expired, 1); !slices.Equal(got, []string{"http://b.test"}) {
		t.Errorf("LeaseOrigins(w3, max 1) = %q at t0+ttl, want w1's expired lease of b (the earliest due) taken over", got)
	}
	if got := renew(t, sh, "w1", []string{"http://a.test", "http://b.test", "http://c.test"}, expired.Add(time.Second)); !slices.Equal(got, []string{"http://c.test"}) {
		t.Errorf("RenewOrigins(w1) after takeovers = %q, want [http://c.test] (a and b were taken; c expired untaken)", got)
	}
	if leaseOne(t, sh, "w1", "http://a.test", expired.Add(time.Second)) {
		t.Errorf("LeaseOrigin(w1, a) granted back a lease w2 took over")
	}
}

// Fencing (issue 12): a batch whose Owner no longer holds the lease of an origin it writes for
// (an update of its URL, its record, a document of its URL) is refused whole with
// store.ErrLeaseLost, naming the origin; the new owner's writes go through.
func testSharedFencing(t *testing.T, s store.Store) {
	sh := shared(t, s)
	leaseFixture(t, s)
	var page store.URL
	for _, u := range allURLs(t, s) {
		if u.URL == "http://a.test/" {
			page = u
		}
	}
	if !leaseOne(t, sh, "w1", "http://a.test", t0) {
		t.Fatal("LeaseOrigin(w1, a) refused on a free origin")
	}
	first := page
	first.State, first.Status, first.FetchedAt, first.NextAt = store.StateFetched, 200, t0, t0.Add(time.Hour)
	commit(t, s, store.Batch{Owner: "w1", Updates: []store.URL{first}, Origins: []store.Origin{{Key: "http://a.test", PauseStrikes: 1}}})

	if !leaseOne(t, sh, "w2", "http://a.test", t0.Add(leaseTTL)) {
		t.Fatal("LeaseOrigin(w2, a) refused after w1's lease expired")
	}
	stale := first
	stale.State, stale.Status = store.StateError, 0
	for name, b := range map[string]store.Batch{
		"update":   {New: []store.NewURL{queued("http://z.test/found", 1, t0)}, Updates: []store.URL{stale}},
		"record":   {Origins: []store.Origin{{Key: "http://a.test", PauseReason: "stale"}}},
		"document": {Documents: []store.Document{{URLID: page.ID, Index: true, Title: "stale"}}},
		"unleased": {Origins: []store.Origin{{Key: "http://b.test", PauseReason: "never leased"}}},
	} {
		b.Owner = "w1"
		_, err := s.Commit(t.Context(), b)
		var lost *store.LeaseLostError
		if !errors.Is(err, store.ErrLeaseLost) || !errors.As(err, &lost) || len(lost.Origins) != 1 {
			t.Errorf("%s: Commit by w1 after losing the lease: %v, want a *store.LeaseLostError naming one origin", name, err)
		}
	}
	if d := diff(first, urlByID(t, s, page.ID)); d != "" {
		t.Errorf("a refused batch changed the URL (-want +got):\n%s", d)
	}
	if got := urlStrings(allURLs(t, s)); slices.Contains(got, "http://z.test/found") {
		t.Errorf("a refused batch added its new URL")
	}
	if o := origin(t, s, "http://a.test"); o.PauseStrikes != 1 || o.PauseReason != "" {
		t.Errorf("a refused batch changed the origin record: %+v", o)
	}
	if lag, err := s.IndexLag(t.Context()); err != nil || lag != 0 {
		t.Errorf("IndexLag = %d, %v after a refused document; want 0", lag, err)
	}
	second := first
	second.Attempts = 2
	commit(t, s, store.Batch{Owner: "w2", Updates: []store.URL{second}})
	if got := urlByID(t, s, page.ID); got.Attempts != 2 {
		t.Errorf("the new owner's update was not applied: %+v", got)
	}
}

// nextDue calls NextDue for owner at now, failing the test on an error.
func nextDue(t *testing.T, s store.Shared, owner string, now time.Time) time.Time {
	t.Helper()
	next, err := s.NextDue(t.Context(), owner, now)
	if err != nil {
		t.Fatalf("NextDue(%q, t0%+v): %v", owner, now.Sub(t0), err)
	}
	return next
}

// store.Shared.NextDue (issue 12: a worker ends only when nothing is due cluster-wide): the
// earliest due URL of the origins the caller does not hold, an origin another live owner holds
// counting from its lease's expiry; zero once the caller holds every origin with a due URL.
func testSharedNextDue(t *testing.T, s store.Store) {
	sh := shared(t, s)
	leaseFixture(t, s)
	at := func(d time.Duration) string { return fmt.Sprintf("t0%+v", d) }
	check := func(owner string, now time.Time, want time.Time, why string) {
		t.Helper()
		got := nextDue(t, sh, owner, now)
		if !got.Equal(want) {
			g := "zero"
			if !got.IsZero() {
				g = at(got.Sub(t0))
			}
			w := "zero"
			if !want.IsZero() {
				w = at(want.Sub(t0))
			}
			t.Errorf("NextDue(%s, %s) = %s, want %s (%s)", owner, at(now.Sub(t0)), g, w, why)
		}
	}
	check("w2", t0, t0.Add(time.Minute), "b's earliest due URL; nothing leased")
	if !leaseOne(t, sh, "w1", "http://b.test", t0) {
		t.Fatal("LeaseOrigin(w1, b) refused on a free origin")
	}
	check("w2", t0, t0.Add(2*time.Minute), "c: w1 holds b until t0+1h")
	check("w1", t0, t0.Add(2*time.Minute), "c: w1's own lease of b does not count")
	for _, k := range []string{"http://a.test", "http://c.test", "http://d.test"} {
		if !leaseOne(t, sh, "w1", k, t0) {
			t.Fatalf("LeaseOrigin(w1, %s) refused on a free origin", k)
		}
	}
	check("w2", t0, t0.Add(leaseTTL), "every due origin is w1's until its lease expires")
	check("w1", t0, time.Time{}, "w1 holds every origin with a due URL")
	check("w2", t0.Add(leaseTTL), t0.Add(time.Minute), "w1's leases expired: b is free")
	if err := sh.ReleaseOrigins(t.Context(), "w1", []string{"http://c.test"}); err != nil {
		t.Fatal(err)
	}
	check("w1", t0, t0.Add(2*time.Minute), "c was released")
}
