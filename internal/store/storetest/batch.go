package storetest

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Batch.Empty: an empty batch changes nothing, and committing one is not an error.
func testEmptyBatch(t *testing.T, s store.Store) {
	for _, b := range []store.Batch{{}, {New: []store.NewURL{}, Updates: []store.URL{}, Origins: []store.Origin{}}} {
		added, err := s.Commit(t.Context(), b)
		if err != nil || len(added) != 0 {
			t.Errorf("Commit(empty batch) = %v, %v; want nothing, no error", added, err)
		}
	}
	if us, ors := allURLs(t, s), allOrigins(t, s); len(us) != 0 || len(ors) != 0 {
		t.Errorf("empty batches stored %d URLs and %d origins", len(us), len(ors))
	}
}

// store.Store.Commit: "applies a batch atomically: either every change is durable or none is".
// An update of an ID the store does not hold fails the batch, after its new URLs, a valid update
// and origin records were applied: none of them may remain, and the store keeps working.
func testUnknownUpdateUndoesBatch(t *testing.T, s store.Store) {
	known := commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/", 0, t0)}})[0]
	valid := known
	valid.State, valid.Status, valid.FetchedAt, valid.NextAt = store.StateFetched, 200, t0.Add(time.Minute), time.Time{}
	ghost := store.URL{ID: known.ID + 1000, URL: "http://a.test/ghost", Origin: "http://a.test", State: store.StateFetched}
	_, err := s.Commit(t.Context(), store.Batch{
		New:     []store.NewURL{queued("http://b.test/new", 1, t0.Add(time.Minute))},
		Updates: []store.URL{valid, ghost},
		Origins: []store.Origin{fullOrigin("http://a.test"), fullOrigin("http://e.test")},
	})
	if err == nil {
		t.Fatal("Commit with an update of an unknown ID: no error")
	}
	if d := diff([]store.URL{known}, allURLs(t, s)); d != "" {
		t.Errorf("URLs after the failed batch (-want +got):\n%s", d)
	}
	if d := diff([]store.Origin{{Key: "http://a.test"}}, allOrigins(t, s)); d != "" {
		t.Errorf("origins after the failed batch (-want +got):\n%s", d)
	}
	retry := commit(t, s, store.Batch{New: []store.NewURL{queued("http://b.test/new", 1, t0.Add(time.Minute))}})
	if len(retry) != 1 {
		t.Errorf("after a failed batch, its new URL is not new: Commit returned %q", urlStrings(retry))
	}
	if _, ok, err := s.Origin(t.Context(), "http://b.test"); err != nil || !ok {
		t.Errorf("the origin of a URL added after a failed batch named it: ok %v, err %v; want created", ok, err)
	}
}

// The crawler's writer merges several outcomes into one batch, so changes within a batch apply
// in the order given (see the package doc): the later update of an ID and the later record of an
// origin win, and a batch may discover an origin and record it.
func testOrderWithinBatch(t *testing.T, s store.Store) {
	u := commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/", 0, t0)}})[0]
	failed, ok := u, u
	failed.State, failed.Status, failed.Reason, failed.Attempts = store.StateError, 0, "connection reset", 1
	ok.State, ok.Status, ok.FetchedAt, ok.NextAt = store.StateFetched, 200, t0.Add(time.Minute), time.Time{}
	paused := store.Origin{Key: "http://a.test", PausedUntil: t0.Add(time.Hour), PauseStrikes: 1, PauseReason: "503"}
	probed := store.Origin{Key: "http://a.test", Probing: true}
	discovered := fullOrigin("http://z.test")
	commit(t, s, store.Batch{
		New:     []store.NewURL{queued("http://z.test/", 1, t0.Add(time.Minute))},
		Updates: []store.URL{failed, ok},
		Origins: []store.Origin{paused, discovered, probed},
	})
	if d := diff(ok, urlByID(t, s, u.ID)); d != "" {
		t.Errorf("two updates of one URL in a batch: the last must win (-want +got):\n%s", d)
	}
	if d := diff(probed, origin(t, s, probed.Key)); d != "" {
		t.Errorf("two records of one origin in a batch: the last must win (-want +got):\n%s", d)
	}
	if d := diff(discovered, origin(t, s, discovered.Key)); d != "" {
		t.Errorf("origin discovered and recorded in one batch: the record must stand (-want +got):\n%s", d)
	}
}

// store.Batch: "The Store does not retain the Batch or its slices after Commit returns". The
// caller may reuse its buffers at once.
func testDoesNotRetainBatch(t *testing.T, s store.Store) {
	rec := fullOrigin("http://a.test")
	news := []store.NewURL{queued("http://a.test/x", 0, t0)}
	commit(t, s, store.Batch{New: news, Origins: []store.Origin{rec}})
	for i := range rec.Robots.Body {
		rec.Robots.Body[i] = '#'
	}
	rec.Sitemaps[0] = "http://a.test/overwritten.xml"
	news[0] = queued("http://a.test/overwritten", 3, t0.Add(time.Hour))

	if d := diff(fullOrigin("http://a.test"), origin(t, s, "http://a.test")); d != "" {
		t.Errorf("origin changed with the caller's buffers (-want +got):\n%s", d)
	}
	if got := urlStrings(allURLs(t, s)); len(got) != 1 || got[0] != "http://a.test/x" {
		t.Errorf("URLs changed with the caller's buffers: %q", got)
	}
}

// Times are UTC (store.URL, store.Origin): a time given in another zone comes back as the
// same instant, in UTC.
func testTimesUTC(t *testing.T, s store.Store) {
	zone := time.FixedZone("UTC+05:30", 5*3600+1800)
	local := t0.In(zone)
	u := commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/", 0, local)}})[0]
	requireUTC(t, "returned DiscoveredAt", u.DiscoveredAt, t0)
	requireUTC(t, "returned NextAt", u.NextAt, t0)
	u.FetchedAt, u.NextAt = local.Add(time.Minute), local.Add(time.Hour)
	rec := store.Origin{Key: "http://a.test", PausedUntil: local.Add(2 * time.Hour),
		Robots: store.RobotsRecord{FetchedAt: local, ExpiresAt: local.Add(48 * time.Hour)}}
	commit(t, s, store.Batch{Updates: []store.URL{u}, Origins: []store.Origin{rec}})

	got := urlByID(t, s, u.ID)
	requireUTC(t, "DiscoveredAt", got.DiscoveredAt, t0)
	requireUTC(t, "FetchedAt", got.FetchedAt, t0.Add(time.Minute))
	requireUTC(t, "NextAt", got.NextAt, t0.Add(time.Hour))
	o := origin(t, s, "http://a.test")
	requireUTC(t, "PausedUntil", o.PausedUntil, t0.Add(2*time.Hour))
	requireUTC(t, "Robots.FetchedAt", o.Robots.FetchedAt, t0)
	requireUTC(t, "Robots.ExpiresAt", o.Robots.ExpiresAt, t0.Add(48*time.Hour))
}

func requireUTC(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("%s = %v, want %v (the same instant, in UTC)", what, got, want)
	}
}
