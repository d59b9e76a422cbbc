package storetest

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Batch.Updates: "changes to known URLs, matched by ID". Every field round-trips, set and
// then back to its zero value (a URL fetched, then failing with no answer and never due).
func testUpdateRoundTrip(t *testing.T, s store.Store) {
	u := commit(t, s, store.Batch{New: []store.NewURL{
		{URL: "http://a.test/page", Origin: "http://a.test", Kind: store.KindSitemap, Depth: 1, Hops: 1,
			State: store.StateQueued, Reason: "seed", DiscoveredAt: t0},
	}})[0]

	full := u
	full.Depth, full.Hops = 4, 2
	full.State, full.Status, full.RuleLine = store.StateRobotsDisallowed, 404, 7
	full.Reason = `Disallow: /privé "quoted" (robots.txt line 7)`
	full.FetchedAt, full.NextAt, full.Attempts = t0.Add(time.Second), t0.Add(24*time.Hour), 3
	full.ContentType, full.Location = "text/html; charset=utf-8", "http://a.test/page/"
	full.Indexed, full.NoIndex, full.NoFollow = true, true, true
	full.Canonical = "http://a.test/page?canonical=1"
	full.ETag, full.LastModified = `W/"é1"`, "Sun, 01 Mar 2026 11:00:00 GMT"
	full.WARC = store.WARCRef{File: "MANDELBOT-20260301110000000-00000-h-1-0a0b0c0d.warc.gz", Offset: 1 << 33,
		RecordID: "<urn:uuid:6f1a4c1e-0000-4000-8000-000000000001>"}
	requireAllSet(t, full)

	zero := u
	zero.Depth, zero.Hops = 0, 0
	zero.State, zero.Status, zero.Reason, zero.RuleLine = store.StateError, 0, "", 0
	zero.FetchedAt, zero.NextAt, zero.Attempts = time.Time{}, time.Time{}, 0
	zero.ContentType, zero.Location = "", ""
	zero.Indexed, zero.NoIndex, zero.NoFollow = false, false, false
	zero.Canonical = ""
	zero.ETag, zero.LastModified, zero.WARC = "", "", store.WARCRef{}

	for _, step := range []struct {
		name string
		u    store.URL
	}{{"every field set", full}, {"back to zero values", zero}, {"set again", full}} {
		commit(t, s, store.Batch{Updates: []store.URL{step.u}})
		if d := diff(step.u, urlByID(t, s, u.ID)); d != "" {
			t.Errorf("%s: stored URL (-want +got):\n%s", step.name, d)
		}
	}
}

// store.Batch.Updates: "URL, Origin, Kind and DiscoveredAt never change". An update carrying
// other values changes the other fields only; the canonical URL stays the de-duplication key.
func testUpdateImmutableFields(t *testing.T, s store.Store) {
	n := queued("http://a.test/x", 0, t0)
	u := commit(t, s, store.Batch{New: []store.NewURL{n}})[0]
	changed := u
	changed.URL, changed.Origin, changed.Kind = "http://other.test/y", "http://other.test", store.KindSitemap
	changed.DiscoveredAt = t0.Add(time.Hour)
	changed.State, changed.Status, changed.NextAt = store.StateFetched, 200, time.Time{}
	commit(t, s, store.Batch{Updates: []store.URL{changed}})

	want := u
	want.State, want.Status, want.NextAt = store.StateFetched, 200, time.Time{}
	if d := diff(want, urlByID(t, s, u.ID)); d != "" {
		t.Errorf("update changed an immutable field (-want +got):\n%s", d)
	}
	added := commit(t, s, store.Batch{New: []store.NewURL{n, queued(changed.URL, 0, t0)}})
	if got := urlStrings(added); len(got) != 1 || got[0] != changed.URL {
		t.Errorf("after the update, Commit of [%s %s] added %q; want only the second", n.URL, changed.URL, got)
	}
}
