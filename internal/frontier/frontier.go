package frontier

import (
	"container/heap"
	"fmt"
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/trap"
	"github.com/fractle/mandelbot/robotstxt"
)

// Frontier holds the per-origin queues and the origin gate. Create it with New.
type Frontier struct {
	opts     Options
	origins  map[string]*origin
	ready    originHeap
	inflight int // requests handed out and not yet reported Done, Processed or RobotsDone
	pending  int // outcomes not yet reported Persisted
	pages    *trap.PageBudget

	// What the queues and the known sets are charged (memory.go), the most charged at once, and
	// the origins waiting for room to refill.
	queueBytes, knownBytes, peak int64
	reserved                     int64 // for loads and refills in progress (reserve)
	starved                      []*origin

	// toLoad holds the origins not loaded yet, in the order they came (loads.go); loadTurn
	// says that the next step is a load when one waits and a request is ready too.
	toLoad   []*origin
	loadTurn bool
}

// New returns an empty Frontier.
func New(opts Options) *Frontier {
	opts = opts.withDefaults()
	return &Frontier{opts: opts, origins: make(map[string]*origin), pages: trap.NewPageBudget(opts.MaxPagesPerOrigin)}
}

func (f *Frontier) get(key string, now time.Time) *origin {
	o := f.origins[key]
	if o == nil {
		o = &origin{key: key, host: hostOf(key), index: -1, known: make(map[int64]struct{})}
		f.applyCrawlDelay(o) // the configured delay: no robots.txt yet
		f.origins[key] = o
		o.readyAt = never // loaded from toLoad, not from the ready heap (loads.go)
		heap.Push(&f.ready, o)
		f.toLoad = append(f.toLoad, o)
	}
	return o
}

func (f *Frontier) fix(o *origin, now time.Time) {
	if f.origins[o.key] != o {
		return // forgotten (released, dropped or away) while a step was produced
	}
	if o.away {
		o.queue, o.head, o.strBytes, o.hasMore = nil, 0, 0, false
		f.recharge(o)
		if !o.outstanding() {
			f.forget(o)
			return
		}
	}
	f.recharge(o)
	o.readyAt = o.computeReady(now, f.opts.PerOrigin, f.opts.ReleaseIdle)
	heap.Fix(&f.ready, o.index)
}

// forget removes o from the Frontier.
func (f *Frontier) forget(o *origin) {
	f.discharge(o)
	heap.Remove(&f.ready, o.index)
	delete(f.origins, o.key)
}

// Want announces that the store holds due URLs of origin: the Frontier will ask to load the
// origin and refill its queue from the store.
func (f *Frontier) Want(originKey string, now time.Time) {
	o := f.get(originKey, now)
	o.hasMore = true
	f.fix(o, now)
}

// Push puts back a URL that was handed out and may be requested again at once in this run (a
// cancelled request, say), at the end of its origin's queue. The URL is already known. A URL that
// got no answer waits its backoff instead: see Retry.
func (f *Frontier) Push(u store.URL, now time.Time) {
	o := f.get(u.Origin, now)
	o.known[u.ID] = struct{}{}
	f.giveBack(u)
	o.enqueue(f.window(), u)
	f.fix(o, now)
}

// Loaded restores an origin's persisted state after a StepLoad: its record, the IDs of every
// URL the store knows of it, and its first due URLs (store.Queue.LoadOrigin). URLs discovered
// before the load stay queued unless the store already had them and they are not due (fetched
// in an earlier run); due URLs join the queue once.
func (f *Frontier) Loaded(key string, l store.OriginLoad, now time.Time) {
	o := f.get(key, now)
	o.loaded, o.loading = true, false
	f.unreserve(o)
	rec := l.Origin
	o.robots = robots.NewState(rec.Robots, f.opts.Agent, f.opts.Robots)
	o.pausedUntil, o.pauseStrikes, o.pauseReason, o.probing = rec.PausedUntil, rec.PauseStrikes, rec.PauseReason, rec.Probing
	o.sitemaps = rec.Sitemaps
	f.applyCrawlDelay(o)
	f.pages.Restore(key, l.Requested+len(o.took)) // issue 29: the budget spans every run

	waiting := make(map[int64]bool, len(l.Waiting))
	for _, id := range l.Waiting {
		waiting[id] = true
	}
	kept := o.queue[:0]
	queued := make(map[int64]bool, o.queued()+len(l.Due))
	for _, u := range o.queue[o.head:] {
		if waiting[u.ID] {
			continue // known to the store and not due: fetched in an earlier run, or out of scope
		}
		kept = append(kept, u)
		queued[u.ID] = true
	}
	clear(o.queue[len(kept):])
	o.queue, o.head = kept, 0
	o.recountQueue()
	for _, u := range l.Due {
		if !queued[u.ID] {
			o.enqueue(f.window(), u)
		}
	}
	f.recharge(o) // the known set is a cache: it takes only the room the queue leaves
	if f.admit(o, len(l.IDs)) {
		for _, id := range l.IDs {
			o.known[id] = struct{}{}
		}
	}
	o.hasMore = o.hasMore || l.More
	f.fix(o, now)
}

// Discover records that u (a URL just found, with its ID) exists, and reports whether it is new
// to the Frontier. A new URL whose State is queued joins its origin's queue, creating the origin
// (to be loaded) if needed; when the queue is full it stays in the store for a later refill and
// overflow is true: the caller must call OverflowPersisted once the write carrying u is durable.
// A URL in any other state (out of scope) is only remembered, and only for an origin the
// Frontier already has: new reports true for it otherwise, and the store de-duplicates it.
//
// With a share (Options.MaxBytes), a queue full to its part of the share overflows too, and an
// origin whose known set did not fit (partial) sends every URL it does not know to the store:
// new reports true, and the store, which knows every URL, ignores one it has (issue 29).
func (f *Frontier) Discover(u store.URL, now time.Time) (isNew, overflow bool) {
	o := f.origins[u.Origin]
	if o == nil {
		if u.State != store.StateQueued {
			return true, false
		}
		o = f.get(u.Origin, now)
	}
	if _, ok := o.known[u.ID]; ok {
		return false, false
	}
	if f.admit(o, 1) {
		o.known[u.ID] = struct{}{}
	}
	o.observe(&u)
	if u.State != store.StateQueued || o.away {
		f.recharge(o)
		return true, false // an origin away is another process's: the store keeps the URL
	}
	// Before the load, the store's due URLs are still to come and are merged then; after it, a
	// store holding more means this URL must wait its turn there. A partial origin may have the
	// URL in the store already: only a refill from the store may queue it.
	w := f.window()
	if o.partial || o.queued() >= w || f.room() < int64(o.growth(1, w))*QueuedURLBytes+urlBytes(&u) ||
		o.refilling || (o.loaded && o.hasMore) {
		o.hasMore = true
		o.overflowedInRefill = o.overflowedInRefill || o.refilling
		o.overflow++
		f.fix(o, now)
		return true, true
	}
	o.enqueue(w, u)
	f.fix(o, now)
	return true, false
}

// OverflowPersisted reports that a URL Discover overflowed for origin key is durable.
func (f *Frontier) OverflowPersisted(key string, now time.Time) {
	o := f.origins[key]
	if o == nil {
		return
	}
	o.overflow--
	f.fix(o, now)
}

// Refilled hands over the due URLs read for a StepRefill. Fewer than the limit means the store
// has no more due URLs of the origin for now. They become known: on a store shared by several
// processes, another one may have added them since the load (issue 12), and a link to one of
// them found later must not queue it twice.
func (f *Frontier) Refilled(key string, urls []store.URL, limit int, now time.Time) {
	o := f.get(key, now)
	o.refilling = false
	f.unreserve(o)
	for i := range urls {
		o.observe(&urls[i])
	}
	o.enqueue(f.window(), urls...)
	f.recharge(o) // the known set is a cache: it takes only the room the queue leaves
	if f.admit(o, len(urls)) {
		for i := range urls {
			o.known[urls[i].ID] = struct{}{}
		}
	}
	// A URL that overflowed while the refill was read may be missing from urls.
	o.hasMore = len(urls) >= limit || o.overflowedInRefill
	o.overflowedInRefill = false
	f.fix(o, now)
}

// Next returns the next step at time now. The caller performs it and reports back: StepFetch with
// Done (or Answered once the answer is read, then Processed), StepRobots with RobotsDone, StepLoad with Loaded, StepRefill with Refilled, and every
// write (Done, RobotsDone and StepSkip produce one) with Persisted.
func (f *Frontier) Next(now time.Time) Step {
	f.wake(now)
	load := f.nextToLoad()
	for f.ready.Len() > 0 && (load == nil || !f.loadTurn) {
		o := f.ready[0]
		if o.readyAt.After(now) {
			break
		}
		if st, ok := f.step(o, now); ok {
			f.loadTurn = true
			return st
		}
	}
	if load != nil {
		f.loadTurn = false
		return f.startLoad(load, now)
	}
	if f.ready.Len() > 0 && !f.ready[0].readyAt.Equal(never) {
		return Step{Kind: StepWait, Until: f.ready[0].readyAt}
	}
	if f.inflight > 0 || f.pending > 0 || f.busy() {
		return Step{Kind: StepWait}
	}
	return Step{Kind: StepDone}
}

// busy reports whether an origin waits on a load, refill or robots.txt fetch that the caller has
// not reported yet, or on overflowed URLs becoming durable.
func (f *Frontier) busy() bool {
	for _, o := range f.origins {
		if o.loading || o.refilling || o.robotsBusy || o.overflow > 0 {
			return true
		}
	}
	return false
}

// step produces the step of a ready origin, or reports false after updating its ready time.
func (f *Frontier) step(o *origin, now time.Time) (Step, bool) {
	if f.opts.ReleaseIdle && o.idle() {
		f.forget(o)
		return Step{Kind: StepRelease, Origin: o.key}, true
	}
	defer f.fix(o, now)
	if o.durable < o.gate {
		return Step{}, false // a robots.txt decision or a pause is not durable yet
	}
	if o.queued() == 0 {
		o.wakeDeferred(now)
		if o.canRefill() {
			limit, ok := f.fill(o)
			if !ok {
				f.starve(o)
				return Step{}, false
			}
			o.refilling = true
			f.reserve(o, limit)
			return Step{Kind: StepRefill, Origin: o.key, Limit: limit}, true
		}
		return Step{}, false
	}
	if now.Before(o.pausedUntil) {
		return Step{}, false
	}
	if verdict, reason, ok := o.disallowedHead(now); ok {
		// Never requested (rule 16), so neither the gap nor a request in flight holds it back.
		return f.skip(o, o.pop(), verdict, reason), true
	}
	if now.Before(o.notBefore) {
		return Step{}, false
	}
	if due, validators := o.robots.Due(now); due {
		o.robotsBusy = true
		o.probeInFlight = o.probing
		f.inflight++
		o.notBefore = now.Add(o.wait())
		return Step{Kind: StepRobots, Origin: o.key, Header: validators}, true
	}
	if !o.robots.Usable(now) || o.inflight >= o.capacity(f.opts.PerOrigin) {
		return Step{}, false
	}
	u := o.pop()
	// The guard of every request (rule 16): disallowedHead has taken a disallowed head above,
	// on the same decision, so this skip is for safety only.
	if allowed, verdict, reason := o.robots.Test(pathAndQuery(u.URL)); !allowed {
		return f.skip(o, u, verdict, reason), true
	}
	if !f.takePage(o, u) {
		f.pending++
		o.writes++
		return Step{Kind: StepReject, Origin: o.key, URL: u, Reason: f.pages.Verdict(o.key).Reason}, true
	}
	o.inflight++
	f.inflight++
	o.notBefore = now.Add(o.wait())
	o.probeInFlight = o.probing
	return Step{Kind: StepFetch, Origin: o.key, URL: u}, true
}

// skip records u, taken from o's queue, as disallowed by robots.txt (verdict, reason): a write
// the caller persists (Persisted), never a request.
func (f *Frontier) skip(o *origin, u store.URL, verdict robotstxt.Verdict, reason string) Step {
	f.pending++
	o.writes++
	return Step{Kind: StepSkip, Origin: o.key, URL: u, Reason: reason, Verdict: verdict}
}

// Outcome is what happened to a StepFetch request.
type Outcome struct {
	Status int // HTTP status, 0 when no answer came (network error)
	// Took is how long the request took, from its start to the answer read (or to giving up,
	// when none came): the adaptive delay's input (issue 29, Options.Pace).
	Took         time.Duration
	RetryAfter   time.Duration // from a 503 or 429 answer
	RetryAfterOK bool          // RetryAfter was present and valid
}

// Done reports the outcome of a StepFetch for u (its new record) at time now (when the answer
// ended). A 503 or 429 pauses the whole origin (rule 23): u, if still queued, goes back to the
// front of its queue, to be requested again as the single probe when the pause ends; a u the
// caller gave up (any other state) is done, and the next URL of the origin probes instead. The
// caller persists the result and then calls Persisted.
//
// Done reports resumed when the answer was the probe's and ended a pause: the origin's record
// (Record) changed, and the caller persists it with u, so that the store no longer shows a pause.
//
// Done is Answered and Processed at once, for an answer that needs no processing.
func (f *Frontier) Done(u store.URL, out Outcome, now time.Time) (resumed bool) {
	f.Answered(u, out, now)
	return f.Processed(u, out, now)
}

// Answered reports that the request of a StepFetch for u was answered at now (status and header
// known, body read) while the caller still processes the answer (issue 8): per-origin concurrency
// counts requests on the wire, so the origin's slot is free for its next request, and the
// politeness delay runs from now. The probe's answer ends the probing (rule 23). The caller
// reports u's new record later with Processed, with the same outcome.
//
// A 503 or 429 frees nothing: the origin pauses before any further request to it, and the pause
// is durable first (rule 23), so Answered ignores such an answer and Processed acts on it as Done
// does.
func (f *Frontier) Answered(u store.URL, out Outcome, now time.Time) {
	if isPause(out.Status) {
		return
	}
	o := f.get(u.Origin, now)
	o.inflight--
	o.processing++
	f.adapt(o, out, now)
	if f.answered(o, out.Status, out.RetryAfter, out.RetryAfterOK, now) {
		o.resumed = true
	}
	f.fix(o, now)
}

// Processed reports u's new record at now, after Answered with the same outcome. The caller
// persists the result and then calls Persisted. A pausing answer (503, 429) is acted on here: see
// Done.
//
// Processed reports resumed when an answer reported since the origin's last Processed (usually
// u's own) ended a pause: the origin's record (Record) changed, and the caller persists it with
// u, so that the store no longer shows a pause.
func (f *Frontier) Processed(u store.URL, out Outcome, now time.Time) (resumed bool) {
	o := f.get(u.Origin, now)
	pause := isPause(out.Status)
	if pause {
		// Answered freed nothing: the request leaves the wire only now, and pauses the origin.
		o.inflight--
		f.adapt(o, out, now)
		f.answered(o, out.Status, out.RetryAfter, out.RetryAfterOK, now)
	} else {
		o.processing--
	}
	f.inflight--
	f.pending++
	o.writes++
	if pause {
		o.gate = o.writes // the pause must be durable before the probe (rule 23)
	}
	if pause && u.State == store.StateQueued {
		f.giveBack(u) // asked again as the probe: one page of the budget
		o.pushFront(u)
	}
	if out.Status != 0 || u.State != store.StateQueued {
		delete(o.took, u.ID) // requested: its page stays counted (unanswered and queued: Push gives it back)
	}

	resumed, o.resumed = o.resumed, false
	f.fix(o, now)
	return resumed
}

// answered updates the pause state after an answer (status 0: none came). A 503 or 429 pauses
// the origin (rule 23); any other answer to the probe ends the probing and resets the backoff,
// and answered reports that it did.
func (f *Frontier) answered(o *origin, status int, retryAfter time.Duration, ok bool, now time.Time) (resumed bool) {
	wasProbe := o.probeInFlight
	o.probeInFlight = false
	switch {
	case isPause(status):
		f.pause(o, status, retryAfter, ok, now)
	case status != 0 && wasProbe:
		o.probing, o.pauseStrikes, o.pauseReason = false, 0, ""
		return true
	}
	return false
}

func isPause(status int) bool {
	return status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests
}

func (f *Frontier) pause(o *origin, status int, retryAfter time.Duration, ok bool, now time.Time) {
	o.pauseStrikes++
	d := f.opts.Pause.Duration(o.pauseStrikes, retryAfter, ok)
	until := now.Add(d)
	if until.After(o.pausedUntil) {
		o.pausedUntil = until
	}
	o.probing = true
	how := "backoff"
	if ok {
		how = "Retry-After"
	}
	o.pauseReason = fmt.Sprintf("answered %d: paused until %s (%s, strike %d)", status, o.pausedUntil.UTC().Format(time.RFC3339), how, o.pauseStrikes)
}

// RobotsDone reports the decision of a StepRobots fetch. A 503 or 429 on robots.txt also pauses
// the origin (rule 23). It returns the origin's record for the caller to persist (then
// Persisted), and the sitemaps newly named by robots.txt.
func (f *Frontier) RobotsDone(key string, d robots.Decision, now time.Time) (store.Origin, []string) {
	o := f.get(key, now)
	o.robotsBusy = false
	f.inflight--
	f.pending++
	o.writes++
	o.gate = o.writes // the decision must be durable before the gate acts on it
	o.robots.Apply(d, f.opts.Robots)
	f.applyCrawlDelay(o)
	o.notBefore = latest(o.notBefore, now.Add(o.wait()))
	f.answered(o, d.Status, d.RetryAfter, d.RetryAfter > 0, now)
	var fresh []string
	if d.Kind == robots.KindRules && d.Robots != nil {
		seen := make(map[string]bool, len(o.sitemaps))
		for _, s := range o.sitemaps {
			seen[s] = true
		}
		for _, s := range d.Robots.Sitemaps() {
			if !seen[s] {
				fresh = append(fresh, s)
				o.sitemaps = append(o.sitemaps, s)
			}
		}
	}
	f.fix(o, now)
	return o.record(), fresh
}

// RobotsCanceled reports that the robots.txt request of a StepRobots for origin key got no
// answer because the run is stopping (a deadline, an interrupt): it is not a failure (rule 21
// counts answers and network errors, not our own cancellation), nothing is written, and
// robots.txt is due again as before.
func (f *Frontier) RobotsCanceled(key string, now time.Time) {
	o := f.get(key, now)
	o.robotsBusy = false
	o.probeInFlight = false
	f.inflight--
	f.fix(o, now)
}

// Canceled reports that the request of a StepFetch for u (not Answered) got no answer because
// the run is stopping: u stays queued in the store, nothing is written and nothing is counted (neither
// an attempt nor a page of the origin's budget).
func (f *Frontier) Canceled(u store.URL, now time.Time) {
	o := f.get(u.Origin, now)
	o.inflight--
	f.inflight--
	o.probeInFlight = false
	f.giveBack(u)
	f.fix(o, now)
}

// Queued reports how many URLs of origin key wait in memory.
func (f *Frontier) Queued(key string) int {
	if o := f.origins[key]; o != nil {
		return o.queued()
	}
	return 0
}

func (f *Frontier) applyCrawlDelay(o *origin) {
	base, why := f.opts.Delay, "--delay"
	if d, ok := f.opts.SiteDelay[o.host]; ok {
		base, why = d, "--site-delay"
	}
	o.delay, o.delayWhy = base, why
	if !f.opts.HonorCrawlDelay || o.robots == nil || o.robots.Group() == nil {
		return
	}
	if cd, ok := o.robots.Group().CrawlDelay(); ok && cd > o.delay {
		o.delay, o.delayWhy = min(cd, MaxHonoredCrawlDelay), "robots.txt Crawl-delay"
	}
}

// Persisted reports that one write of origin key (a Done, RobotsDone or StepSkip) is durable.
func (f *Frontier) Persisted(key string, now time.Time) {
	o := f.get(key, now)
	f.pending--
	o.durable++
	f.fix(o, now)
}

// OriginView is a read-only snapshot of one origin, for progress displays and the export.
type OriginView struct {
	Key          string
	Queued       int
	InFlight     int
	PausedUntil  time.Time
	PauseReason  string
	Unreachable  bool
	RobotsReason string
	// Gap is the origin's current gap between requests, the larger of its configured delay and
	// its adaptive gap (issue 29), and GapReason says which and why.
	Gap       time.Duration
	GapReason string
}

// Origins returns a snapshot of every origin the Frontier knows.
func (f *Frontier) Origins() []OriginView {
	out := make([]OriginView, 0, len(f.origins))
	for _, o := range f.origins {
		v := OriginView{Key: o.key, Queued: o.queued(), InFlight: o.inflight, PausedUntil: o.pausedUntil, PauseReason: o.pauseReason}
		v.Gap, v.GapReason = o.gapNow()
		if o.robots != nil {
			v.Unreachable = o.robots.Unreachable()
			v.RobotsReason = o.robots.Record().Reason
		}
		out = append(out, v)
	}
	return out
}

// Record returns the persistent state of origin key, or false when it is not loaded.
func (f *Frontier) Record(key string) (store.Origin, bool) {
	o := f.origins[key]
	if o == nil || !o.loaded {
		return store.Origin{}, false
	}
	return o.record(), true
}

// Drop forgets origin key and its queued URLs (they stay in the store), for an origin another
// crawl process holds the lease of. Nothing of it may be in flight.
func (f *Frontier) Drop(key string) {
	o := f.origins[key]
	if o == nil {
		return
	}
	f.forget(o)
}

// Away reports that the process lost the lease of origin key (issue 12: another process took it
// over, or it could not be renewed in time): its queued URLs are dropped (they stay in the
// store), nothing more of it is handed out, and what is outstanding (requests in flight, loads,
// writes) is still reported as usual and then ignored; the origin is forgotten once nothing of it
// is outstanding. A URL discovered for it meanwhile is only remembered: the store keeps it.
func (f *Frontier) Away(key string, now time.Time) {
	o := f.origins[key]
	if o == nil {
		return
	}
	o.away = true
	f.fix(o, now)
}
