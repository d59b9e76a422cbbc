package frontier

import "testing"

// issue 9 ("--max-time is a deadline") and robots-semantics.md rule 21: a robots.txt request
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
