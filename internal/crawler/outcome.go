package crawler

import (
	"time"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
)

// handleResult acts on a worker's result: it tells the frontier and queues the write. An early
// report (issue 8) only tells the frontier that the answer was read: the origin's next request
// may leave while the page is processed; the task stays in flight until its result.
func (c *crawl) handleResult(r result) {
	now := c.opts.Clock.Now()
	if r.early {
		c.silence.heard()
		c.f.Answered(r.task.url, r.outcome, now)
		return
	}
	c.inflight--
	if r.fatal != nil {
		// The answer could not be archived (issue 13): nothing of it is saved, and the crawl
		// stops as on a store error. The URL (or robots.txt) stays due.
		c.fail(r.fatal)
		if r.task.robots {
			c.f.RobotsCanceled(r.task.origin, now)
		} else {
			c.f.Canceled(r.task.url, now)
		}
		return
	}
	if r.refused != "" {
		if r.task.robots {
			c.f.RobotsCanceled(r.task.origin, now)
		} else {
			c.f.Canceled(r.url, now)
			c.pagesStarted-- // not a request: no page of MaxPages is spent
		}
		c.refuse(r.task.origin, r.refused, now)
		return
	}
	if !r.task.robots && r.noAnswer == nil && r.outcome.Took > 0 {
		c.keeper.Answered(r.outcome.Took) // the lease batch follows the answer times (issue 31)
	}
	if r.task.robots && r.canceled {
		c.f.RobotsCanceled(r.task.origin, now) // the run is stopping: no answer, nothing written
		return
	}
	if r.task.robots {
		c.robotsResult(r, now)
		return
	}
	u := r.url
	c.stats.BadURLs += r.bad
	switch {
	case r.noAnswer != nil && !r.canceled:
		c.noAnswer(r.task.origin, u.URL, r.noAnswer)
	case !r.canceled:
		c.silence.heard()
	}
	switch {
	case r.canceled:
		// The run is stopping: the URL stays queued in the store and in no write.
		c.f.Canceled(u, now)
		return
	case r.retry:
		// Issue 29: asked again at u.NextAt, after a backoff; the store keeps the retry.
		c.stats.Retries++
		c.f.Retry(u, r.outcome, u.NextAt, now)
		c.save(write{origin: u.Origin, batch: store.Batch{Updates: []store.URL{u}}})
		c.opts.Log.Debug("no answer, will retry", "url", u.URL, "attempt", u.Attempts, "at", u.NextAt, "reason", u.Reason)
		return
	}
	if u.State != store.StateQueued {
		delete(c.via, u.URL) // requested for good: its chain was handed over
	}
	paused := r.outcome.Status == 503 || r.outcome.Status == 429
	if paused {
		c.stats.Paused++ // given up or not, the answer paused the origin
	}
	switch {
	case u.State == store.StateError:
		c.stats.Errors++
		c.stats.Failure = u.URL + ": " + u.Reason
		c.opts.Log.Warn("giving up", "url", u.URL, "reason", u.Reason)
	case paused:
	default:
		c.stats.Pages++
		c.opts.Log.Debug("fetched", "url", u.URL, "status", u.Status, "links", len(r.found))
	}
	var resumed bool
	if r.answered {
		resumed = c.f.Processed(u, r.outcome, now)
	} else {
		resumed = c.f.Done(u, r.outcome, now)
	}
	if r.outcome.Status == 503 || r.outcome.Status == 429 {
		if rec, ok := c.f.Record(u.Origin); ok {
			c.opts.Log.Info("origin paused", "origin", u.Origin, "reason", rec.PauseReason)
			c.save(write{origin: u.Origin, urgent: true, archived: r.archived, batch: store.Batch{Updates: []store.URL{u}, Origins: []store.Origin{rec}}})
			return
		}
	}
	w := write{origin: u.Origin, archived: r.archived, batch: store.Batch{Updates: []store.URL{u}, Links: r.links}}
	if resumed {
		// The probe was answered: the pause is over in the store too (rule 23).
		if rec, ok := c.f.Record(u.Origin); ok {
			w.batch.Origins = []store.Origin{rec}
		}
		c.opts.Log.Info("origin resumed", "origin", u.Origin, "status", r.outcome.Status)
	} else if rec, ok := c.f.GapMoved(u.Origin); ok {
		w.batch.Origins = []store.Origin{rec} // issue 29: the store keeps the origin's gap and why
	}
	w.batch.New, w.overflow = c.discover(r.found, now)
	c.chain(r.task, w.batch.New)
	if r.doc != nil {
		w.batch.Documents = []store.Document{*r.doc}
	}
	c.save(w)
}

// refuse leaves origin key alone for the rest of the run: this process may not connect to it
// (issue 27). Its URLs stay due in the store, untouched, for a run that may; it is reported once.
func (c *crawl) refuse(key, reason string, now time.Time) {
	c.f.Away(key, now)
	if c.refused[key] {
		return
	}
	if c.refused == nil {
		c.refused = map[string]bool{}
	}
	c.refused[key] = true
	c.stats.Refused++
	c.stats.Failure = key + ": " + reason
	c.opts.Log.Warn("origin left queued", "origin", key, "reason", reason)
}

// discover gives found URLs to the frontier and returns those new to it (for the store, which
// de-duplicates the rest), and the origins of those that overflowed their window.
func (c *crawl) discover(found []store.NewURL, now time.Time) (fresh []store.NewURL, overflow []string) {
	fresh = found[:0]
	for _, n := range found {
		n.DiscoveredAt = now
		isNew, over := c.f.Discover(queuedURL(n), now)
		if !isNew {
			continue
		}
		fresh = append(fresh, n)
		if over {
			overflow = append(overflow, n.Origin)
		}
	}
	return fresh, overflow
}

// queuedURL is the record a new URL has in the store once committed.
func queuedURL(n store.NewURL) store.URL {
	u := store.URL{ID: store.IDOf(n.URL), URL: n.URL, Origin: n.Origin, Kind: n.Kind, Depth: n.Depth, Hops: n.Hops,
		State: n.State, Reason: n.Reason, DiscoveredAt: n.DiscoveredAt}
	if n.State == store.StateQueued {
		u.NextAt = n.DiscoveredAt
	}
	return u
}

func (c *crawl) robotsResult(r result, now time.Time) {
	d := r.decision
	key := r.task.origin
	if r.noAnswer != nil {
		c.noAnswer(key, key+"/robots.txt", r.noAnswer)
	} else {
		c.silence.heard()
	}
	c.stats.Robots++
	if int(d.Kind) < len(c.stats.RobotsOutcomes) {
		c.stats.RobotsOutcomes[d.Kind]++
	}
	rec, fresh := c.f.RobotsDone(key, d, now)
	b := store.Batch{Origins: []store.Origin{rec}}
	var found []store.NewURL
	for _, s := range fresh {
		if c.opts.AddedOnly || c.sitemapsQueued[key] >= MaxSitemapsPerOrigin {
			break
		}
		u, err := c.worker.parser.Parse(s)
		if err != nil {
			c.stats.BadURLs++
			continue
		}
		c.sitemapsQueued[key]++
		found = append(found, c.scope.newURL(u, store.KindSitemap, 0, 0))
	}
	var overflow []string
	b.New, overflow = c.discover(found, now)
	level := c.opts.Log.Info
	if d.Kind == robots.KindUnreachable {
		level = c.opts.Log.Warn
	}
	level("robots.txt", "origin", key, "decision", d.Kind.String(), "status", d.Status, "reason", rec.Robots.Reason)
	if !rec.PausedUntil.IsZero() && rec.PausedUntil.After(now) {
		c.opts.Log.Info("origin paused", "origin", key, "reason", rec.PauseReason)
	}
	// Urgent: the origin's gate waits for this decision to be durable.
	c.save(write{origin: key, batch: b, overflow: overflow, urgent: true, archived: r.archived})
}

// handleAck acts on durable writes: the frontier may now act on robots.txt decisions and pauses,
// and refill those origins; the indexer has documents to fold in (and is woken when they are
// about a transaction's worth).
func (c *crawl) handleAck(a ack) {
	now := c.opts.Clock.Now()
	c.pendingWrites -= len(a.origins)
	c.pendingNew -= a.newURLs
	if a.err != nil {
		c.fail(a.err)
	}
	for _, o := range a.origins {
		c.f.Persisted(o, now)
	}
	if len(a.lost) > 0 {
		c.away(a.lost, "fenced commit refused") // their outcomes were dropped
	}
	for _, o := range a.overflow {
		c.f.OverflowPersisted(o, now)
	}
	c.countAdded(a.added)
	c.indexLag += a.docs // until the indexer's next report
	if a.err == nil && c.waker.add(a.docs, a.docBytes) {
		select {
		case c.indexWake <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
}

// countAdded counts URLs the store recorded as new.
func (c *crawl) countAdded(added []store.URL) {
	for _, u := range added {
		c.stats.Discovered++
		if u.State == store.StateOutOfScope {
			c.stats.OutOfScope++
		}
	}
}

// handleIndexed takes the indexer's progress report.
func (c *crawl) handleIndexed(r indexed) {
	if r.err != nil {
		c.fail(r.err)
		return
	}
	c.indexLag = r.lag
}

// chain remembers, for Page.Redirects, the redirect chain of the redirect targets among fresh
// (new URLs discovered by the answer of t): t's own chain and t's URL.
func (c *crawl) chain(t task, fresh []store.NewURL) {
	if c.via == nil {
		return
	}
	for _, n := range fresh {
		if n.Hops == 0 || n.Kind != store.KindPage || n.State != store.StateQueued || len(c.via) >= MaxRedirectChains {
			continue
		}
		c.via[n.URL] = append(t.via[:len(t.via):len(t.via)], t.url.URL)
	}
}
