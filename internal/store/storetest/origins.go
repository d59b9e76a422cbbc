package storetest

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Batch.Origins: "origin records to write". Every field round-trips, the robots.txt body as
// bytes; a sparse record keeps its zero times zero ("a zero time means never").
func testOriginRoundTrip(t *testing.T, s store.Store) {
	full := fullOrigin("http://a.test")
	requireAllSet(t, full)
	sparse := store.Origin{Key: "http://b.test:8080", Robots: store.RobotsRecord{Kind: 1, Status: 404,
		Reason: "404: no robots.txt, everything allowed", FetchedAt: t0, ExpiresAt: t0.Add(48 * time.Hour)}}
	notFetched := store.Origin{Key: "https://c.test"}
	commit(t, s, store.Batch{Origins: []store.Origin{full, sparse, notFetched}})

	for _, want := range []store.Origin{full, sparse, notFetched} {
		if d := diff(want, origin(t, s, want.Key)); d != "" {
			t.Errorf("Origin(%q) (-want +got):\n%s", want.Key, d)
		}
	}
	if d := diff([]store.Origin{full, sparse, notFetched}, allOrigins(t, s)); d != "" {
		t.Errorf("EachOrigin (-want +got):\n%s", d)
	}
}

// store.Batch.Origins: "(insert or replace)". Writing a record replaces every field: nothing of
// the previous record is merged in.
func testOriginReplace(t *testing.T, s store.Store) {
	full := fullOrigin("http://a.test")
	unpaused := store.Origin{Key: "http://a.test", Robots: store.RobotsRecord{Kind: 2, Status: 500, Failures: 1,
		FailingSince: t0, RetryAt: t0.Add(time.Minute)}}
	for i, want := range []store.Origin{full, unpaused, full} {
		commit(t, s, store.Batch{Origins: []store.Origin{want}})
		if d := diff(want, origin(t, s, want.Key)); d != "" {
			t.Errorf("write %d: Origin (-want +got):\n%s", i+1, d)
		}
	}
}

// store.Store.Origin: "ok is false when the origin is unknown".
func testOriginUnknown(t *testing.T, s store.Store) {
	commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/", 0, t0)}, Origins: []store.Origin{fullOrigin("http://b.test")}})
	for _, key := range []string{"http://c.test", "https://a.test", "http://a.test:8080", "http://b.tes"} {
		o, ok, err := s.Origin(t.Context(), key)
		if err != nil || ok {
			t.Errorf("Origin(%q) = ok %v, err %v; want unknown, no error", key, ok, err)
		}
		if d := diff(store.Origin{}, o); d != "" {
			t.Errorf("Origin(%q) of an unknown key is not the zero record:\n%s", key, d)
		}
	}
}

// store.Store.Commit creates the origins of new URLs "as needed": discovering more URLs of an
// origin never resets its robots.txt decision or its pause (docs/robots-rules.md rules 22, 23:
// both are persistent).
func testOriginNotReset(t *testing.T, s store.Store) {
	commit(t, s, store.Batch{Origins: []store.Origin{fullOrigin("http://a.test")}})
	commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/x", 1, t0), queued("http://a.test/y", 1, t0)}})
	if d := diff(fullOrigin("http://a.test"), origin(t, s, "http://a.test")); d != "" {
		t.Errorf("origin record after discovering its URLs (-want +got):\n%s", d)
	}
}

// The records a store returns belong to the caller: changing their slices changes nothing stored.
func testOriginCallerOwns(t *testing.T, s store.Store) {
	commit(t, s, store.Batch{Origins: []store.Origin{fullOrigin("http://a.test")}})
	for _, got := range []store.Origin{origin(t, s, "http://a.test"), allOrigins(t, s)[0]} {
		got.Robots.Body[0] = '#'
		got.Sitemaps[0] = "http://a.test/changed.xml"
	}
	if d := diff(fullOrigin("http://a.test"), origin(t, s, "http://a.test")); d != "" {
		t.Errorf("stored origin changed with a returned record (-want +got):\n%s", d)
	}
}
