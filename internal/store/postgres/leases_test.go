package postgres_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 3: "Paused origins do not take batch slots." A worker asking for a batch of n
// origins while k origins are paused (a 503 paused them for every worker) gets n unpaused ones,
// even though the paused ones were due first; the paused ones are leased again once their pause
// ends. Time is an input: the pause ends because now moves past it.
func TestLeaseOriginsSkipsPausedOrigins(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const n, k = 4, 3
	pauseEnds := t0.Add(10 * time.Minute)
	var b store.Batch
	var paused, open []string
	for i := range k {
		key := fmt.Sprintf("http://p%d.test", i)
		paused = append(paused, key)
		// Discovered first: by due time alone, the paused origins would fill the batch.
		b.New = append(b.New, store.NewURL{URL: key + "/", Origin: key, State: store.StateQueued, DiscoveredAt: t0.Add(-time.Hour)})
		b.Origins = append(b.Origins, store.Origin{Key: key, PausedUntil: pauseEnds, PauseStrikes: 1, PauseReason: "503"})
	}
	for i := range n + 2 {
		key := fmt.Sprintf("http://o%d.test", i)
		open = append(open, key)
		b.New = append(b.New, store.NewURL{URL: key + "/", Origin: key, State: store.StateQueued, DiscoveredAt: t0.Add(time.Duration(i) * time.Second)})
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Minute)
	got, err := s.LeaseOrigins(t.Context(), "w1", now, now, time.Hour, n)
	if err != nil {
		t.Fatal(err)
	}
	if want := open[:n]; !slices.Equal(got, want) {
		t.Fatalf("batch of %d with %d paused origins: %q, want the %d earliest unpaused %q", n, k, got, n, want)
	}
	// Another worker, asking for everything, gets the unpaused rest and still none of the paused.
	got, err = s.LeaseOrigins(t.Context(), "w2", now, now, time.Hour, n+k+2)
	if err != nil {
		t.Fatal(err)
	}
	if want := open[n:]; !slices.Equal(got, want) {
		t.Fatalf("second worker: %q, want %q (no paused origin)", got, want)
	}
	// A moment before the pause ends, still nothing; at its end the paused origins are leased.
	before := pauseEnds.Add(-time.Microsecond)
	if got, err = s.LeaseOrigins(t.Context(), "w3", before, before, time.Hour, k); err != nil || len(got) != 0 {
		t.Fatalf("before the pause ends: %q, %v; want none", got, err)
	}
	if got, err = s.LeaseOrigins(t.Context(), "w3", pauseEnds, pauseEnds, time.Hour, k); err != nil || !slices.Equal(got, paused) {
		t.Fatalf("once the pause ends: %q, %v; want %q", got, err, paused)
	}
}

// LeaseEach (issue 31: the loads that queued up together, leased in one statement) grants what
// LeaseOrigin would grant each key: a free origin and the owner's own (renewed), an expired lease
// of another owner, not a live one of another owner.
func TestLeaseEachGrantsAsLeaseOriginWould(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const ttl = time.Minute
	free, own, expired, live := "http://free.test", "http://own.test", "http://expired.test", "http://live.test"
	for _, l := range []struct {
		owner, key string
		at         time.Time
	}{{"a", own, t0}, {"b", expired, t0.Add(-2 * ttl)}, {"b", live, t0}} {
		if ok, err := s.LeaseOrigin(t.Context(), l.owner, l.key, l.at, ttl); err != nil || !ok {
			t.Fatalf("LeaseOrigin(%s, %s) = %v, %v", l.owner, l.key, ok, err)
		}
	}
	got, err := s.LeaseEach(t.Context(), "a", []string{live, free, expired, own}, t0, ttl)
	if want := []string{expired, free, own}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("LeaseEach = %v, %v; want %v (key order)", got, err, want)
	}
	if ok, err := s.LeaseOrigin(t.Context(), "b", free, t0.Add(ttl/2), ttl); err != nil || ok {
		t.Errorf("another owner leased an origin LeaseEach granted: %v, %v", ok, err)
	}
}
