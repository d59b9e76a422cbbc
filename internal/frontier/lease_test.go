package frontier

import (
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 12, "fencing ... that origin's work is dropped locally": once the lease is lost, nothing
// more of the origin is handed out; the request in flight is still reported, its write counted,
// and then the origin is forgotten, so a later discovery loads it anew (and leases it again).
func TestIssue12_AwayOriginHandsOutNothingMore(t *testing.T) {
	h := newHarness(t, Options{}, "/a", "/b", "/c")
	h.robots(404, "", nil)
	st := h.expect(StepFetch)
	h.f.Away(testOrigin, h.now)
	if got := h.f.Queued(testOrigin); got != 0 {
		t.Errorf("Queued after Away = %d, want 0 (the store keeps them)", got)
	}
	if next := h.f.Next(h.now.Add(time.Hour)); next.Kind != StepWait || !next.Until.IsZero() {
		t.Fatalf("step with a request in flight to an origin away = %+v, want a wait for its outcome", next)
	}
	h.f.Done(st.URL, Outcome{Status: 200}, h.now)
	if next := h.f.Next(h.now.Add(time.Hour)); next.Kind != StepWait {
		t.Fatalf("step with the write of an origin away pending = %+v, want a wait for it", next)
	}
	if isNew, overflow := h.f.Discover(store.URL{ID: 99, URL: testOrigin + "/d", Origin: testOrigin, State: store.StateQueued}, h.now); !isNew || overflow {
		t.Errorf("Discover on an origin away = %v, %v; want new, not overflowed (the store keeps it)", isNew, overflow)
	}
	h.f.Persisted(testOrigin, h.now)
	if next := h.f.Next(h.now.Add(time.Hour)); next.Kind != StepDone {
		t.Fatalf("step once nothing of the origin away is outstanding = %+v, want done", next)
	}
	if len(h.f.Origins()) != 0 {
		t.Errorf("origins after the away origin settled: %+v, want none", h.f.Origins())
	}
	h.discover("/e")
	if next := h.f.Next(h.now); next.Kind != StepLoad {
		t.Errorf("step after a new URL of a forgotten origin = %+v, want a load (lease it anew)", next)
	}
}

// Issue 12, "leases released after --delay when an origin has nothing due": with ReleaseIdle,
// an origin whose work is done is released once the delay since its last request has passed
// (so that the next process to lease it keeps the delay), and forgotten.
func TestIssue12_IdleOriginReleasedAfterItsDelay(t *testing.T) {
	const delay = 2 * time.Second
	h := newHarness(t, Options{Delay: delay, ReleaseIdle: true}, "/a")
	h.robots(404, "", nil)
	h.now = h.now.Add(delay)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	st := h.expect(StepWait)
	if !st.Until.Equal(h.now.Add(delay)) {
		t.Fatalf("wait until t0%+v, want the release after --delay (t0%+v)", st.Until.Sub(t0), h.now.Add(delay).Sub(t0))
	}
	h.now = st.Until
	if st := h.expect(StepRelease); st.Origin != testOrigin {
		t.Fatalf("release of %q", st.Origin)
	}
	h.expect(StepDone)
}

// Without ReleaseIdle (one process on its store), an idle origin is kept: the run ends with it.
func TestIssue12_IdleOriginKeptWithoutReleaseIdle(t *testing.T) {
	h := newHarness(t, Options{}, "/a")
	h.robots(404, "", nil)
	h.done(h.expect(StepFetch), Outcome{Status: 200})
	h.expect(StepDone)
	if len(h.f.Origins()) != 1 {
		t.Errorf("origins = %+v, want the idle origin kept", h.f.Origins())
	}
}
