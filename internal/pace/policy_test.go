package pace

import (
	"strings"
	"testing"
	"time"
)

// issue 29 ("a delay that listens to the server"): the gap is the factor times the last
// answer's duration; it grows after timeouts and 5xx answers, relaxes by halves as answers come
// back fast, stops at the ceiling, and is nothing under MinGap.
func TestNextFollowsTheServer(t *testing.T) {
	var p Policy
	steps := []struct {
		took   time.Duration
		status int
		want   time.Duration
		reason string
	}{
		{50 * time.Millisecond, 200, 0, ""}, // 100 ms: under MinGap, nothing
		{200 * time.Millisecond, 200, 400 * time.Millisecond, "the last answer took 200ms × 2"},
		{5 * time.Second, 200, 10 * time.Second, "the last answer took 5s × 2"},
		{50 * time.Millisecond, 200, 5 * time.Second, "relaxing: half of 10s"},
		{50 * time.Millisecond, 500, 10 * time.Second, "grew after answer 500"},
		{60 * time.Second, 0, DefaultMax, "no answer (a timeout or a network error), which took 1m0s × 2, capped at 1m0s"},
		{50 * time.Millisecond, 200, 30 * time.Second, "relaxing"},
		{50 * time.Millisecond, 404, 15 * time.Second, "relaxing"}, // a 4xx is an answer, not a failure
	}
	var g Gap
	for i, s := range steps {
		g = p.Next(g, s.took, s.status)
		if g.D != s.want || !strings.Contains(g.Reason, s.reason) {
			t.Fatalf("step %d (%v, %d): gap %v %q, want %v %q", i, s.took, s.status, g.D, g.Reason, s.want, s.reason)
		}
	}
	for range 20 {
		g = p.Next(g, 50*time.Millisecond, 200)
	}
	if g != (Gap{}) {
		t.Fatalf("after fast answers: gap %+v, want none", g)
	}
	if g := p.Next(Gap{}, 0, 0); g.D != ErrorStep {
		t.Fatalf("first failure: gap %v, want ErrorStep", g.D)
	}
	if g := (Policy{Factor: 5, Max: 30 * time.Second}).Next(Gap{}, 10*time.Second, 200); g.D != 30*time.Second {
		t.Fatalf("factor 5, ceiling 30s: gap %v", g.D)
	}
}
