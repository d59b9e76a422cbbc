package crawler

import (
	"time"

	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
)

// handleResult acts on a worker's result: it tells the frontier and queues the write.
func (c *crawl) handleResult(r result) {
	c.inflight--
	now := c.opts.Clock.Now()
	if r.task.robots {
		c.robotsResult(r, now)
		return
	}
	u := r.url
	c.stats.BadURLs += r.bad
	switch {
	case r.canceled:
		// The run is stopping: the URL stays queued in the store and in no write.
		c.f.Done(u, frontier.Outcome{}, now)
		c.f.Persisted(u.Origin, now)
		return
	case r.retry:
		c.stats.Retries++
		c.f.Done(u, frontier.Outcome{}, now)
		c.f.Persisted(u.Origin, now)
		c.f.Push(u, now)
		c.opts.Log.Debug("no answer, will retry", "url", u.URL, "attempt", u.Attempts, "reason", u.Reason)
		return
	}
	switch {
	case u.State == store.StateError:
		c.stats.Errors++
		c.opts.Log.Warn("giving up", "url", u.URL, "reason", u.Reason)
	case r.outcome.Status == 503 || r.outcome.Status == 429:
		c.stats.Paused++
	default:
		c.stats.Pages++
		c.opts.Log.Debug("fetched", "url", u.URL, "status", u.Status, "links", len(r.found))
	}
	c.f.Done(u, r.outcome, now)
	if r.outcome.Status == 503 || r.outcome.Status == 429 {
		if rec, ok := c.f.Record(u.Origin); ok {
			c.opts.Log.Info("origin paused", "origin", u.Origin, "reason", rec.PauseReason)
			c.save(write{origin: u.Origin, batch: store.Batch{Updates: []store.URL{u}, Origins: []store.Origin{rec}}})
			return
		}
	}
	for i := range r.found {
		r.found[i].DiscoveredAt = now
	}
	b := store.Batch{Updates: []store.URL{u}, New: r.found, Links: r.links}
	if r.doc != nil {
		b.Documents = []store.Document{*r.doc}
	}
	c.save(write{origin: u.Origin, batch: b})
}

func (c *crawl) robotsResult(r result, now time.Time) {
	d := r.decision
	key := r.task.origin
	c.stats.Robots++
	rec, fresh := c.f.RobotsDone(key, d, now)
	b := store.Batch{Origins: []store.Origin{rec}}
	for _, s := range fresh {
		if c.sitemapsQueued[key] >= MaxSitemapsPerOrigin {
			break
		}
		u, err := c.worker.parser.Parse(s)
		if err != nil {
			c.stats.BadURLs++
			continue
		}
		c.sitemapsQueued[key]++
		n := c.scope.newURL(u, store.KindSitemap, 0, 0)
		n.DiscoveredAt = now
		b.New = append(b.New, n)
	}
	level := c.opts.Log.Info
	if d.Kind == robots.KindUnreachable {
		level = c.opts.Log.Warn
	}
	level("robots.txt", "origin", key, "decision", d.Kind.String(), "status", d.Status, "reason", rec.Robots.Reason)
	if !rec.PausedUntil.IsZero() && rec.PausedUntil.After(now) {
		c.opts.Log.Info("origin paused", "origin", key, "reason", rec.PauseReason)
	}
	c.save(write{origin: key, batch: b})
}

// handleAck acts on durable writes: the frontier may now refill those origins, and new URLs
// that are due join their queues.
func (c *crawl) handleAck(a ack) {
	now := c.opts.Clock.Now()
	c.pendingWrites -= len(a.origins)
	if a.err != nil {
		c.fail(a.err)
	}
	for _, o := range a.origins {
		c.f.Persisted(o, now)
	}
	for _, u := range a.added {
		c.stats.Discovered++
		if u.State == store.StateOutOfScope {
			c.stats.OutOfScope++
			continue
		}
		if u.State == store.StateQueued && !u.NextAt.After(now) && c.fatal == nil {
			c.f.Push(u, now)
		}
	}
}
