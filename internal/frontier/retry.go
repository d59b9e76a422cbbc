package frontier

import (
	"slices"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Retry reports that the StepFetch request for u got no answer (a network error, a timeout, a
// body that stalled; out.Status 0, out.Took how long it was tried) and that u is to be asked again at at, not before (issue 29: retries back
// off). It is Done with no answer, and u's new record (queued, NextAt at, the attempt counted)
// is the write the caller persists, then Persisted: the store holds the retry, so it survives
// the run. Once at has come, and every outcome of the origin is durable, the Frontier refills
// the origin from the store, which hands u back as due. The page u took of the origin's budget
// is given back: the retry takes it again.
func (f *Frontier) Retry(u store.URL, out Outcome, at, now time.Time) {
	f.Done(u, out, now)
	f.giveBack(u)
	if o := f.origins[u.Origin]; o != nil {
		i, _ := slices.BinarySearchFunc(o.deferred, at, time.Time.Compare)
		o.deferred = slices.Insert(o.deferred, i, at)
		f.fix(o, now)
	}
}

// wakeDeferred makes the retries due at now part of what the store holds due for o: the next
// refill reads them.
func (o *origin) wakeDeferred(now time.Time) {
	n := 0
	for n < len(o.deferred) && !o.deferred[n].After(now) {
		n++
	}
	if n > 0 {
		o.deferred = slices.Delete(o.deferred, 0, n)
		o.hasMore = true
	}
}

// nextDeferred is when o's earliest retry is due, if it has one.
func (o *origin) nextDeferred() (time.Time, bool) {
	if len(o.deferred) == 0 {
		return time.Time{}, false
	}
	return o.deferred[0], true
}
