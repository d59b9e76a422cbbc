package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// due lists the URL strings DueURLs returns, failing the test on an error.
func due(t *testing.T, s store.Store, origin string, now time.Time, limit int) []string {
	t.Helper()
	us, err := s.DueURLs(t.Context(), origin, now, limit)
	if err != nil {
		t.Fatalf("DueURLs(%q, %v, %d): %v", origin, now, limit, err)
	}
	return urlStrings(us)
}

// store.Store.DueURLs: "shallowest first, then in discovery order". Discovery order is not due
// order: a URL found first and due again later still comes before the URLs found after it.
func testDueOrder(t *testing.T, s store.Store) {
	first := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/d2", 2, t0),
		queued("http://a.test/d1-first", 1, t0),
		queued("http://b.test/other-origin", 0, t0),
	}})
	commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/d0", 0, t0.Add(time.Second)),
		queued("http://a.test/d1-second", 1, t0.Add(time.Second)),
		queued("http://a.test/d1-third", 1, t0.Add(time.Second)),
	}})
	requeued := first[1]
	requeued.State, requeued.Status, requeued.FetchedAt = store.StateQueued, 503, t0.Add(time.Second)
	requeued.NextAt = t0.Add(2 * time.Second) // due after d1-second and d1-third
	commit(t, s, store.Batch{Updates: []store.URL{requeued}})

	want := []string{"http://a.test/d0", "http://a.test/d1-first", "http://a.test/d1-second", "http://a.test/d1-third", "http://a.test/d2"}
	got, err := s.DueURLs(t.Context(), "http://a.test", t0.Add(time.Minute), 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(urlStrings(got), want) {
		t.Fatalf("DueURLs order %q, want %q", urlStrings(got), want)
	}
	byID := map[int64]store.URL{}
	for _, u := range allURLs(t, s) {
		byID[u.ID] = u
	}
	for _, u := range got {
		if d := diff(byID[u.ID], u); d != "" {
			t.Errorf("DueURLs record of %s differs from EachURL's (-stored +due):\n%s", u.URL, d)
		}
	}
}

// store.Store.DueURLs: due "at now (NextAt set and not after now)". A zero NextAt is never due,
// whatever the time; NextAt alone decides, not the state (a fetched page due for a refetch is due).
func testDueTime(t *testing.T, s store.Store) {
	added := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/early", 0, t0),
		queued("http://a.test/refetch", 0, t0),
		queued("http://a.test/late", 0, t0.Add(time.Minute)),
		outOfScope("http://a.test/out", "max depth", t0),
		queued("http://a.test/done", 0, t0),
		queued("http://b.test/other-origin", 0, t0),
	}})
	refetch, done := added[1], added[4]
	refetch.State, refetch.Status, refetch.FetchedAt, refetch.NextAt = store.StateFetched, 200, t0, t0.Add(30*time.Second)
	done.State, done.Status, done.FetchedAt, done.NextAt = store.StateFetched, 200, t0, time.Time{}
	commit(t, s, store.Batch{Updates: []store.URL{refetch, done}})

	for _, c := range []struct {
		now  time.Time
		want []string
	}{
		{t0.Add(-time.Microsecond), nil},
		{t0, []string{"http://a.test/early"}}, // NextAt == now is due
		{t0.Add(30*time.Second - time.Microsecond), []string{"http://a.test/early"}},
		{t0.Add(30 * time.Second), []string{"http://a.test/early", "http://a.test/refetch"}},
		{t0.Add(time.Minute), []string{"http://a.test/early", "http://a.test/refetch", "http://a.test/late"}},
		{t0.AddDate(10, 0, 0), []string{"http://a.test/early", "http://a.test/refetch", "http://a.test/late"}},
	} {
		if got := due(t, s, "http://a.test", c.now, 10); !slices.Equal(got, c.want) {
			t.Errorf("DueURLs at t0%+v = %q, want %q", c.now.Sub(t0), got, c.want)
		}
	}
	if got := due(t, s, "http://unknown.test", t0.AddDate(10, 0, 0), 10); len(got) != 0 {
		t.Errorf("DueURLs of an unknown origin = %q, want none", got)
	}
}

// store.Store.DueURLs: "up to limit URLs", the first ones of the order.
func testDueLimit(t *testing.T, s store.Store) {
	var news []store.NewURL
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		news = append(news, queued("http://a.test/"+p, 0, t0))
	}
	commit(t, s, store.Batch{New: news})
	all := []string{"http://a.test/a", "http://a.test/b", "http://a.test/c", "http://a.test/d", "http://a.test/e"}
	for _, limit := range []int{1, 2, 4, 5, 6, 100} {
		want := all[:min(limit, len(all))]
		if got := due(t, s, "http://a.test", t0, limit); !slices.Equal(got, want) {
			t.Errorf("DueURLs limit %d = %q, want %q", limit, got, want)
		}
	}
}
