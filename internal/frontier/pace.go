package frontier

import (
	"fmt"
	"time"
)

// adapt updates o's adaptive gap after an answer that ended at now (issue 29): Options.Pace
// decides it from how long the request took and how it ended; then the origin's next request
// waits the gap from now. With no other request of o on the wire, that replaces the wait set
// when this request left, so a gap that shrinks takes effect at once; with others on the wire
// (PerOrigin above 1), the later of the two holds.
func (f *Frontier) adapt(o *origin, out Outcome, now time.Time) {
	if f.opts.AdaptiveDelay {
		o.gap = f.opts.Pace.Next(o.gap, out.Took, out.Status)
	}
	next := now.Add(o.wait())
	if o.inflight > 0 {
		next = latest(o.notBefore, next)
	}
	o.notBefore = next
}

// wait is the gap o's next request keeps after this one: the larger of the configured delay
// (the floor) and the adaptive gap.
func (o *origin) wait() time.Duration { return max(o.delay, o.gap.D) }

// gapNow is o's current gap and why, for OriginView.
func (o *origin) gapNow() (time.Duration, string) {
	if o.gap.D > o.delay {
		return o.gap.D, fmt.Sprintf("adaptive: %s (above %s %s)", o.gap.Reason, o.delayWhy, o.delay)
	}
	if o.gap.D > 0 {
		return o.delay, fmt.Sprintf("%s %s (the adaptive gap, %s, is below it)", o.delayWhy, o.delay, o.gap.D)
	}
	return o.delay, fmt.Sprintf("%s %s", o.delayWhy, o.delay)
}
