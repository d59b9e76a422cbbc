package storetest

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Reader.EachURL: "every known URL in discovery order": the order the batches named them in.
func testEachURLOrder(t *testing.T, s store.Store) {
	if got := allURLs(t, s); len(got) != 0 {
		t.Fatalf("new store: EachURL gave %q", urlStrings(got))
	}
	var want []store.URL
	for _, b := range [][]store.NewURL{
		{queued("http://z.test/", 0, t0), queued("http://a.test/", 0, t0)},
		{outOfScope("http://m.test/", "outside --scope host", t0)},
		{queued("http://b.test/2", 1, t0), queued("http://b.test/1", 1, t0)},
	} {
		want = append(want, commit(t, s, store.Batch{New: b})...)
	}
	got := allURLs(t, s)
	if d := diff(want, got); d != "" {
		t.Errorf("EachURL (-want +got):\n%s", d)
	}
}

// errStop is the walks' early-stop error; the store must return this very value.
var errStop = errors.New("storetest: stop the walk")

// store.Store.EachURL: "An error from fn stops the walk and is returned", as is (not wrapped), so a
// caller can stop a walk with a sentinel of its own.
func testEachURLStop(t *testing.T, s store.Store) {
	var news []store.NewURL
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		news = append(news, queued("http://a.test/"+p, 0, t0))
	}
	commit(t, s, store.Batch{New: news})
	var seen []string
	err := s.EachURL(t.Context(), func(u store.URL) error {
		seen = append(seen, u.URL)
		if len(seen) == 2 {
			return errStop
		}
		return nil
	})
	if err != errStop {
		t.Errorf("EachURL returned %v, want fn's error as is", err)
	}
	if want := []string{"http://a.test/a", "http://a.test/b"}; !slices.Equal(seen, want) {
		t.Errorf("EachURL called fn with %q, want %q and no more", seen, want)
	}
}

// store.Store.EachOrigin: "every origin in key order": Go's string order, bytes compared, not a
// locale's collation (where "a-b" and "ab" sort together). Origins created by discovery and by
// records are both listed.
func testEachOriginOrder(t *testing.T, s store.Store) {
	if got := allOrigins(t, s); len(got) != 0 {
		t.Fatalf("new store: EachOrigin gave %d origins", len(got))
	}
	discovered := []string{"https://a.test", "http://ab.test", "http://xn--bcher-kva.test", "http://a.test:8080"}
	recorded := []string{"http://a-b.test", "http://a.test", "http://a.b.test"}
	var b store.Batch
	for _, key := range discovered {
		b.New = append(b.New, queued(key+"/", 0, t0))
	}
	for _, key := range recorded {
		b.Origins = append(b.Origins, fullOrigin(key))
	}
	commit(t, s, b)

	want := slices.Sorted(slices.Values(append(slices.Clone(discovered), recorded...)))
	got := allOrigins(t, s)
	keys := make([]string, len(got))
	for i, o := range got {
		keys[i] = o.Key
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("EachOrigin keys %q, want %q", keys, want)
	}
	for _, o := range got {
		if slices.Contains(recorded, o.Key) {
			if d := diff(fullOrigin(o.Key), o); d != "" {
				t.Errorf("EachOrigin record %s (-want +got):\n%s", o.Key, d)
			}
		}
	}
}

// store.Store.EachOrigin: an error from fn stops the walk and is returned as is.
func testEachOriginStop(t *testing.T, s store.Store) {
	var b store.Batch
	for _, key := range []string{"http://a.test", "http://b.test", "http://c.test", "http://d.test"} {
		b.Origins = append(b.Origins, store.Origin{Key: key})
	}
	commit(t, s, b)
	var seen []string
	err := s.EachOrigin(t.Context(), func(o store.Origin) error {
		seen = append(seen, o.Key)
		if len(seen) == 3 {
			return errStop
		}
		return nil
	})
	if err != errStop {
		t.Errorf("EachOrigin returned %v, want fn's error as is", err)
	}
	if want := []string{"http://a.test", "http://b.test", "http://c.test"}; !slices.Equal(seen, want) {
		t.Errorf("EachOrigin called fn with %q, want %q and no more", seen, want)
	}
}

// counts returns Counts without its zero entries (a store may list a state with no URLs or not).
func counts(t *testing.T, s store.Store) map[store.State]int {
	t.Helper()
	c, err := s.Counts(t.Context(), time.Now())
	if err != nil {
		t.Fatalf("Counts: %v", err)
	}
	maps.DeleteFunc(c, func(_ store.State, n int) bool { return n == 0 })
	return c
}

// store.Store.Counts: "how many URLs are in each state", following updates, ignoring
// rediscoveries and failed batches.
func testCounts(t *testing.T, s store.Store) {
	if got := counts(t, s); len(got) != 0 {
		t.Errorf("new store: Counts = %v, want none", got)
	}
	var news []store.NewURL
	for _, p := range []string{"1", "2", "3", "4", "5", "6"} {
		news = append(news, queued("http://a.test/"+p, 0, t0))
	}
	news = append(news, outOfScope("http://b.test/", "outside --scope host", t0))
	added := commit(t, s, store.Batch{New: news})
	want := map[store.State]int{store.StateQueued: 6, store.StateOutOfScope: 1}
	if d := cmp.Diff(want, counts(t, s)); d != "" {
		t.Errorf("Counts after discovery (-want +got):\n%s", d)
	}

	var b store.Batch
	for i, st := range []store.State{store.StateFetched, store.StateRobotsDisallowed, store.StateRobotsUnreachable,
		store.StatePaused, store.StateError} {
		u := added[i]
		u.State = st
		b.Updates = append(b.Updates, u)
	}
	b.New = append(b.New, news...) // all known: no change
	commit(t, s, b)
	want = map[store.State]int{
		store.StateQueued: 1, store.StateOutOfScope: 1, store.StateFetched: 1, store.StateRobotsDisallowed: 1,
		store.StateRobotsUnreachable: 1, store.StatePaused: 1, store.StateError: 1,
	}
	if d := cmp.Diff(want, counts(t, s)); d != "" {
		t.Errorf("Counts after updates (-want +got):\n%s", d)
	}

	failed := added[5]
	failed.State = store.StateFetched
	ghost := store.URL{ID: added[len(added)-1].ID + 1000, State: store.StateFetched}
	if _, err := s.Commit(t.Context(), store.Batch{Updates: []store.URL{failed, ghost}, New: []store.NewURL{queued("http://c.test/", 0, t0)}}); err == nil {
		t.Fatal("Commit with an update of an unknown ID: no error")
	}
	if d := cmp.Diff(want, counts(t, s)); d != "" {
		t.Errorf("Counts after a failed batch (-want +got):\n%s", d)
	}
}
