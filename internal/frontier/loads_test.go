package frontier

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 31 (the time from start to the first request): a crawl that starts with thousands of
// origins to load does not load them all before its first request. Loads and requests take
// turns: an origin loaded is asked for its robots.txt before the next origin is loaded, and
// a ready request never holds the remaining loads back for more than one step.
func TestIssue31_LoadsAndRequestsTakeTurns(t *testing.T) {
	f := New(Options{})
	keys := []string{"http://a.test", "http://b.test", "http://c.test"}
	for _, k := range keys {
		f.Want(k, t0)
	}
	now := t0.Add(time.Millisecond) // the loads are answered after they were wanted
	var got []StepKind
	loaded := 0
	for range 6 {
		st := f.Next(now)
		got = append(got, st.Kind)
		if st.Kind == StepLoad {
			u := store.URL{ID: store.IDOf(st.Origin + "/"), URL: st.Origin + "/", Origin: st.Origin, State: store.StateQueued}
			f.Loaded(st.Origin, store.OriginLoad{Due: []store.URL{u}}, now)
			loaded++
		}
	}
	want := []StepKind{StepLoad, StepRobots, StepLoad, StepRobots, StepLoad, StepRobots}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("steps %v, want %v (loads and robots.txt requests in turn)", got, want)
		}
	}
	if loaded != len(keys) {
		t.Errorf("%d origins loaded, want %d", loaded, len(keys))
	}
}
