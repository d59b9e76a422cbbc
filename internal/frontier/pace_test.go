package frontier

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// issue 29 ("a delay that listens to the server"): with the adaptive delay, the gap after an
// answer is the larger of Delay and the pace factor times how long the answer took; it grows
// after a 5xx or no answer, relaxes as answers come back fast, and returns to Delay; OriginView
// shows the gap and why. Without it, the gap is Delay whatever the server does.
func TestAdaptiveDelayFollowsTheServer(t *testing.T) {
	const delay = time.Second
	type answer struct {
		took   time.Duration
		status int
		gap    time.Duration // wanted gap from the answer's end to the next request
	}
	answers := []answer{
		{50 * time.Millisecond, 200, delay},      // fast: --delay
		{5 * time.Second, 200, 10 * time.Second}, // slowed: 2 × 5 s
		{5 * time.Second, 200, 10 * time.Second},
		{100 * time.Millisecond, 500, 20 * time.Second}, // a 5xx: twice the gap before
		{50 * time.Millisecond, 200, 10 * time.Second},  // fast again: relaxing by halves
		{50 * time.Millisecond, 200, 5 * time.Second},
		{50 * time.Millisecond, 200, 2500 * time.Millisecond},
		{50 * time.Millisecond, 200, 1250 * time.Millisecond},
		{50 * time.Millisecond, 200, delay}, // back at --delay
		{50 * time.Millisecond, 200, delay},
	}
	for _, adaptive := range []bool{true, false} {
		var paths []string
		for i := range len(answers) + 1 {
			paths = append(paths, "/"+strconv.Itoa(i))
		}
		h := newHarness(t, Options{Delay: delay, AdaptiveDelay: adaptive}, paths...)
		h.robots(200, "User-agent: *\nAllow: /\n", nil)
		h.now = h.next().Until // robots.txt's own gap
		for i, a := range answers {
			st := h.expect(StepFetch)
			h.now = h.now.Add(a.took)
			h.done(st, Outcome{Status: a.status, Took: a.took})
			end := h.now
			want := delay
			if adaptive {
				want = a.gap
			}
			v := h.f.Origins()[0]
			if v.Gap != want {
				t.Errorf("adaptive %v, answer %d: OriginView gap %v (%s), want %v", adaptive, i, v.Gap, v.GapReason, want)
			}
			if adaptive && want > delay && !strings.HasPrefix(v.GapReason, "adaptive: ") || want == delay && !strings.HasPrefix(v.GapReason, "--delay 1s") {
				t.Errorf("adaptive %v, answer %d: gap reason %q", adaptive, i, v.GapReason)
			}
			wait := h.next()
			if wait.Kind != StepWait || wait.Until.Sub(end) != want {
				t.Fatalf("adaptive %v, after answer %d: step %+v, want a wait of %v from the answer's end", adaptive, i, wait, want)
			}
			h.now = wait.Until
		}
	}
}

// issue 29 ("export --robots shows each origin's current gap and why"): the store keeps an
// origin's gap through its record. The record of RobotsDone carries the gap of then; GapMoved
// hands out the record again once the gap has moved by GapRecordFactor from the one last handed
// out (up or down), not after every answer; GapsMoved, at the end of a run, any gap changed at all.
func TestGapRecordFollowsTheGapIssue29(t *testing.T) {
	const delay = time.Second
	h := newHarness(t, Options{Delay: delay, AdaptiveDelay: true}, "/1", "/2", "/3", "/4", "/5")
	h.robots(200, "User-agent: *\nAllow: /\n", nil)
	rec, _ := h.f.Record(testOrigin) // what RobotsDone handed out
	if rec.Gap != delay || !strings.HasPrefix(rec.GapReason, "--delay 1s") {
		t.Fatalf("robots.txt record: gap %v (%q), want --delay's 1s", rec.Gap, rec.GapReason)
	}
	h.now = h.next().Until
	for i, a := range []struct {
		took  time.Duration
		moved bool          // a record to write
		gap   time.Duration // its gap
	}{
		{50 * time.Millisecond, false, 0},              // --delay still
		{3 * time.Second, true, 6 * time.Second},       // 6 s: moved from 1 s
		{4 * time.Second, false, 0},                    // 8 s: not twice 6 s
		{50 * time.Millisecond, false, 0},              // relaxing: 4 s, not half of 6 s
		{50 * time.Millisecond, true, 2 * time.Second}, // 2 s: a third of 6 s
	} {
		st := h.expect(StepFetch)
		h.now = h.now.Add(a.took)
		h.done(st, Outcome{Status: 200, Took: a.took})
		rec, moved := h.f.GapMoved(testOrigin)
		if moved != a.moved || moved && (rec.Gap != a.gap || !strings.HasPrefix(rec.GapReason, "adaptive: ")) {
			t.Errorf("answer %d: GapMoved = %v (gap %v, %q), want %v (gap %v)", i, moved, rec.Gap, rec.GapReason, a.moved, a.gap)
		}
		h.now = h.next().Until
	}
	if recs := h.f.GapsMoved(); len(recs) != 0 {
		t.Errorf("GapsMoved = %+v; want none, the last record written has the gap of now", recs)
	}
}
