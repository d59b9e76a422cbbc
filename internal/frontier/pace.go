package frontier

import (
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
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

// GapRecordFactor is how far an origin's gap moves, up or down, from the gap its last record
// was written with before GapMoved hands out a record to write again: the store keeps each
// origin's gap (export --robots shows it, issue 29) without a write after every answer.
const GapRecordFactor = 2

// GapMoved returns the record of origin key when its gap moved by GapRecordFactor or more from
// the gap of its last record written (or from none), for the caller to write with the origin's
// next outcome; false when it did not, or the origin is not loaded.
func (f *Frontier) GapMoved(key string) (store.Origin, bool) {
	o := f.origins[key]
	if o == nil || !o.loaded || o.away || !gapMoved(o.savedGap, o.wait()) {
		return store.Origin{}, false
	}
	return o.record(), true
}

// GapsMoved returns the records of the loaded origins whose gap changed at all since their last
// record written, for the end of a run: what the store keeps is then the last gap.
func (f *Frontier) GapsMoved() []store.Origin {
	var out []store.Origin
	for _, o := range f.origins {
		if o.loaded && !o.away && o.savedGap != o.wait() {
			out = append(out, o.record())
		}
	}
	return out
}

// gapMoved reports whether now is GapRecordFactor times saved or more, or saved that many times
// now (a gap from none counts as moved).
func gapMoved(saved, now time.Duration) bool {
	return now != saved && (now >= saved*GapRecordFactor || saved >= now*GapRecordFactor)
}

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
