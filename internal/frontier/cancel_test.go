package frontier

import (
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// issue 9 ("--max-time is a deadline") and docs/robots-rules.md rule 21: a robots.txt request
// cancelled by the run stopping is no answer: nothing is in flight afterwards (the run can end),
// no failure is counted, and robots.txt is the next step again, at once.
func TestRobotsCanceledIsNoAnswer(t *testing.T) {
	h := newHarness(t, Options{}, "/a")
	st := h.expect(StepRobots)
	h.f.RobotsCanceled(st.Origin, h.now)
	rec, _ := h.f.Record(testOrigin)
	if rec.Robots.Failures != 0 || rec.Robots.Kind != 0 {
		t.Errorf("record after a cancelled robots.txt request: %+v", rec.Robots)
	}
	h.expect(StepRobots)
}

// issue 9 and docs/robots-rules.md rule 23: a URL the caller gave up after a 503 (its record no
// longer queued) still pauses the origin, but is not asked again: after the pause, the next URL
// of the origin is the single probe.
func TestRule23_GivenUpURLIsNotTheProbe(t *testing.T) {
	h := newHarness(t, Options{}, "/broken", "/next")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	st := h.expect(StepFetch)
	st.URL.State = store.StateError
	h.done(st, Outcome{Status: 503})
	wait := h.expect(StepWait)
	if !wait.Until.Equal(h.now.Add(time.Minute)) {
		t.Fatalf("paused until +%v, want the 1 minute first backoff", wait.Until.Sub(h.now))
	}
	h.now = wait.Until
	if st := h.expect(StepFetch); !strings.HasSuffix(st.URL.URL, "/next") {
		t.Fatalf("probe %s, want /next", st.URL.URL)
	}
}
