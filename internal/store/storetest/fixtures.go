package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/fractle/mandelbot/internal/store"
)

// t0 is the suite's clock origin: every time is t0 plus a whole number of microseconds.
var t0 = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

// equateEmpty makes nil and empty slices equal (robots.txt body, sitemaps); times compare with
// time.Time.Equal (go-cmp uses a type's Equal method).
var equateEmpty = cmpopts.EquateEmpty()

// originOf returns the origin key of an absolute test URL: everything before the path.
func originOf(u string) string {
	rest := u[strings.Index(u, "://")+3:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return u[:len(u)-len(rest)+i]
	}
	return u
}

// queued is a NewURL found at depth, queued when discovered.
func queued(u string, depth int, discovered time.Time) store.NewURL {
	return store.NewURL{URL: u, Origin: originOf(u), Depth: depth, State: store.StateQueued, DiscoveredAt: discovered}
}

// outOfScope is a NewURL known but not to be fetched.
func outOfScope(u, reason string, discovered time.Time) store.NewURL {
	return store.NewURL{URL: u, Origin: originOf(u), State: store.StateOutOfScope, Reason: reason, DiscoveredAt: discovered}
}

// stored is the record a store must hold for n once it is added with id: the contract of
// Commit (a queued URL is first due when discovered; an out-of-scope one never).
func stored(n store.NewURL, id int64) store.URL {
	u := store.URL{
		ID: id, URL: n.URL, Origin: n.Origin, Kind: n.Kind, Depth: n.Depth, Hops: n.Hops,
		State: n.State, Reason: n.Reason, DiscoveredAt: n.DiscoveredAt,
	}
	if n.State == store.StateQueued {
		u.NextAt = n.DiscoveredAt
	}
	return u
}

// commit commits b and fails the test on an error.
func commit(t *testing.T, s store.Store, b store.Batch) []store.URL {
	t.Helper()
	added, err := s.Commit(t.Context(), b)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return added
}

// allURLs lists the store's URLs through EachURL.
func allURLs(t *testing.T, s store.Store) []store.URL {
	t.Helper()
	var out []store.URL
	if err := s.EachURL(t.Context(), func(u store.URL) error { out = append(out, u); return nil }); err != nil {
		t.Fatalf("EachURL: %v", err)
	}
	return out
}

// allOrigins lists the store's origins through EachOrigin.
func allOrigins(t *testing.T, s store.Store) []store.Origin {
	t.Helper()
	var out []store.Origin
	if err := s.EachOrigin(t.Context(), func(o store.Origin) error { out = append(out, o); return nil }); err != nil {
		t.Fatalf("EachOrigin: %v", err)
	}
	return out
}

// urlByID finds id through EachURL; the test fails when it is missing.
func urlByID(t *testing.T, s store.Store, id int64) store.URL {
	t.Helper()
	for _, u := range allURLs(t, s) {
		if u.ID == id {
			return u
		}
	}
	t.Fatalf("URL id %d not in the store", id)
	return store.URL{}
}

// origin reads key and fails the test when it is unknown.
func origin(t *testing.T, s store.Store, key string) store.Origin {
	t.Helper()
	o, ok, err := s.Origin(t.Context(), key)
	if err != nil {
		t.Fatalf("Origin(%q): %v", key, err)
	}
	if !ok {
		t.Fatalf("Origin(%q): unknown", key)
	}
	return o
}

// urlStrings returns the URL strings of us, in order.
func urlStrings(us []store.URL) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.URL
	}
	return out
}

// diff compares store records field by field (-want +got), nil and empty slices alike.
func diff(want, got any) string { return cmp.Diff(want, got, equateEmpty) }

// fullOrigin is an origin record with every field set, the robots.txt body holding bytes that
// are not text (NUL, invalid UTF-8, CR LF) so a store must keep it as bytes.
func fullOrigin(key string) store.Origin {
	return store.Origin{
		Key: key,
		Robots: store.RobotsRecord{
			Kind: 3, Status: 200,
			Body:   []byte("User-agent: *\r\nDisallow: /private\x00\xff\xfe\n"),
			Reason: "Disallow: /private (robots.txt line 2)", FetchedAt: t0.Add(time.Second),
			ExpiresAt: t0.Add(48 * time.Hour), ETag: `"v1"`, LastMod: "Sun, 01 Mar 2026 11:00:00 GMT",
			FailingSince: t0.Add(-time.Hour), Failures: 3, RetryAt: t0.Add(5 * time.Minute),
			AsNotFound: true, GoodBody: true,
			WARC: store.WARCRef{File: "MANDELBOT-20260301110000000-00000-h-1-0a0b0c0d.warc.gz", Offset: 1 << 33,
				RecordID: "<urn:uuid:6f1a4c1e-0000-4000-8000-000000000002>"},
		},
		PausedUntil: t0.Add(10 * time.Minute), PauseStrikes: 2, PauseReason: "503 Service Unavailable",
		Probing:  true,
		Sitemaps: []string{key + "/sitemap.xml", key + "/news.xml"},
		// Issue 29: the gap and why, kept to the millisecond.
		Gap: 2*time.Second + 500*time.Millisecond, GapReason: "adaptive: 2x the last answer's 1.25s (above --delay 1s)",
	}
}
