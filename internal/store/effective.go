package store

import "time"

// OriginStatus is what a URL's effective state depends on in its origin.
type OriginStatus struct {
	PausedUntil       time.Time
	PauseReason       string
	RobotsUnreachable bool // robots.txt cannot be read and no good copy exists
	RobotsReason      string
}

// StatusOf returns the parts of an origin record that Effective needs.
func StatusOf(o Origin) OriginStatus {
	return OriginStatus{
		PausedUntil: o.PausedUntil, PauseReason: o.PauseReason,
		RobotsUnreachable: o.Robots.Failures > 0 && !o.Robots.GoodBody, RobotsReason: o.Robots.Reason,
	}
}

// Effective is the state of a URL as people should see it at now: a queued URL that waits on its
// origin is paused (rule 23) or robots_unreachable (rule 21), with the origin's reason. Every
// other state stands as recorded.
func Effective(state State, reason string, o OriginStatus, now time.Time) (State, string) {
	if state != StateQueued {
		return state, reason
	}
	switch {
	case o.PausedUntil.After(now):
		return StatePaused, "origin " + o.PauseReason
	case o.RobotsUnreachable:
		return StateRobotsUnreachable, o.RobotsReason
	}
	return state, reason
}
