package storetest

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Queue.Reschedule (issue 13): Revisit makes every fetched URL due Revisit after its
// FetchedAt; FetchedBefore makes fetched URLs fetched at or before it due at Now, unless they
// are due earlier already; URLs in other states keep their NextAt.
func testReschedule(t *testing.T, s store.Store) {
	added := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/old", 0, t0),
		queued("http://a.test/recent", 0, t0),
		queued("http://a.test/never", 0, t0.Add(time.Hour)),
		queued("http://a.test/disallowed", 0, t0),
		queued("http://a.test/failed", 0, t0),
		queued("http://a.test/soon", 0, t0),
	}})
	old, recent, never, disallowed, failed, soon := added[0], added[1], added[2], added[3], added[4], added[5]
	old.State, old.Status, old.FetchedAt, old.NextAt = store.StateFetched, 200, t0, t0.Add(24*time.Hour)
	recent.State, recent.Status, recent.FetchedAt, recent.NextAt = store.StateFetched, 200, t0.Add(2*time.Hour), t0.Add(26*time.Hour)
	disallowed.State, disallowed.NextAt = store.StateRobotsDisallowed, t0.Add(24*time.Hour)
	failed.State, failed.FetchedAt, failed.NextAt = store.StateError, t0, t0.Add(24*time.Hour)
	soon.State, soon.Status, soon.FetchedAt, soon.NextAt = store.StateFetched, 200, t0, t0.Add(time.Minute)
	commit(t, s, store.Batch{Updates: []store.URL{old, recent, disallowed, failed, soon}})
	check := func(step string, want map[string]time.Time) {
		t.Helper()
		for _, u := range []store.URL{old, recent, never, disallowed, failed, soon} {
			got := urlByID(t, s, u.ID)
			if w := want[u.URL]; !got.NextAt.Equal(w) {
				t.Errorf("%s: %s NextAt t0%+v, want t0%+v", step, u.URL, got.NextAt.Sub(t0), w.Sub(t0))
			}
		}
	}

	// --revisit 48h applied to what was fetched under 24h.
	if err := s.Reschedule(t.Context(), store.Reschedule{Revisit: 48 * time.Hour, Now: t0.Add(3 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	check("Revisit 48h", map[string]time.Time{
		old.URL: t0.Add(48 * time.Hour), recent.URL: t0.Add(50 * time.Hour), never.URL: t0.Add(time.Hour),
		disallowed.URL: t0.Add(24 * time.Hour), failed.URL: t0.Add(24 * time.Hour), soon.URL: t0.Add(48 * time.Hour),
	})

	// --recrawl-after 1h at t0+5h: what was fetched at or before t0+4h is due now.
	now := t0.Add(5 * time.Hour)
	if err := s.Reschedule(t.Context(), store.Reschedule{FetchedBefore: t0.Add(time.Hour), Now: now}); err != nil {
		t.Fatal(err)
	}
	check("FetchedBefore t0+1h", map[string]time.Time{
		old.URL: now, recent.URL: t0.Add(50 * time.Hour), never.URL: t0.Add(time.Hour),
		disallowed.URL: t0.Add(24 * time.Hour), failed.URL: t0.Add(24 * time.Hour), soon.URL: now,
	})
	if got := due(t, s, "http://a.test", now, 10); len(got) != 3 {
		t.Errorf("due at t0+5h: %q, want old, never and soon", got)
	}

	// A URL already due earlier keeps its earlier time (it is not pushed back).
	if err := s.Reschedule(t.Context(), store.Reschedule{FetchedBefore: now, Now: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	check("FetchedBefore again", map[string]time.Time{
		old.URL: now, recent.URL: now.Add(time.Hour), never.URL: t0.Add(time.Hour),
		disallowed.URL: t0.Add(24 * time.Hour), failed.URL: t0.Add(24 * time.Hour), soon.URL: now,
	})
}
