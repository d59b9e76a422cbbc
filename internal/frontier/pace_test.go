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
