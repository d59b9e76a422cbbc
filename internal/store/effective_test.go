package store

import (
	"testing"
	"time"
)

// Rules 21 and 23: a queued URL is shown as waiting on its origin's pause or unreadable robots.txt.
func TestEffective(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	paused := OriginStatus{PausedUntil: now.Add(time.Minute), PauseReason: "answered 503"}
	blocked := OriginStatus{RobotsUnreachable: true, RobotsReason: "robots.txt answered 500"}
	for _, tt := range []struct {
		state State
		o     OriginStatus
		want  State
	}{
		{StateQueued, OriginStatus{}, StateQueued},
		{StateQueued, paused, StatePaused},
		{StateQueued, OriginStatus{PausedUntil: now.Add(-time.Second)}, StateQueued}, // the pause is over
		{StateQueued, blocked, StateRobotsUnreachable},
		{StateFetched, paused, StateFetched},
		{StateRobotsDisallowed, blocked, StateRobotsDisallowed},
	} {
		if got, _ := Effective(tt.state, "", tt.o, now); got != tt.want {
			t.Errorf("Effective(%s, %+v) = %s, want %s", tt.state, tt.o, got, tt.want)
		}
	}
	if _, reason := Effective(StateQueued, "", paused, now); reason != "origin answered 503" {
		t.Errorf("reason %q", reason)
	}
}
