package crawler

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/urlnorm"
)

// maxLeasedAtStart bounds how many origins a run takes from a store that grants every lease
// (one process: SQLite) when it starts; origins discovered later are leased one by one. On a
// shared store the bound is Options.LeaseBatch.
const maxLeasedAtStart = 1 << 20

// ErrNoSeeds reports a crawl with neither seeds nor queued work in the store.
var ErrNoSeeds = errors.New("nothing to crawl: no seed and no queued URL in the store")

// Run crawls until nothing is due (within Options.MaxWait), a limit is reached, or ctx is
// canceled, and returns what it did. Seeds are added to the store first; a store that already
// holds a crawl is resumed. Cancelling ctx stops new requests, cancels those in flight (their
// URLs stay queued) and saves every outcome already received before Run returns.
func Run(ctx context.Context, opts Options) (Stats, error) {
	followAnswers := opts.LeaseBatch <= 0 // the batch is sized from the answer times
	opts = opts.withDefaults()
	if opts.Fetcher == nil || opts.Store == nil {
		return Stats{}, errors.New("crawl: a Fetcher and a Store are required")
	}
	parser := &urlnorm.Parser{}
	seeds := make([]*urlnorm.URL, 0, len(opts.Seeds))
	for _, s := range opts.Seeds {
		u, err := parser.Parse(s)
		if err != nil {
			return Stats{}, fmt.Errorf("crawl: seed %q: %w", s, err)
		}
		seeds = append(seeds, u)
	}
	// The scope is the seeds' of every run, so a resumed run (seeds omitted) keeps it.
	stored, err := opts.Store.Seeds(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("crawl: read seeds: %w", err)
	}
	scopeSeeds := seeds
	for _, s := range stored {
		if u, err := parser.Parse(s); err == nil {
			scopeSeeds = append(scopeSeeds, u)
		}
	}
	batch := maxLeasedAtStart
	if _, ok := opts.Store.(store.Shared); ok {
		// Several processes (issue 12): hold a bounded batch, and hand back idle origins.
		batch, opts.Frontier.ReleaseIdle = opts.LeaseBatch, true
	}
	keeper := newLeaseKeeper(opts.Store, opts.Owner, opts.LeaseTTL, batch)
	if followAnswers && keeper.shared != nil {
		keeper.follow(opts.Concurrency, opts.Frontier.Delay)
	}
	c := &crawl{
		opts:    opts,
		f:       frontier.New(opts.Frontier),
		scope:   newScope(scopeSeeds, opts.Scope, opts.MaxDepth, opts.CalendarYears, opts.Clock.Now),
		keeper:  keeper,
		cluster: newCluster(keeper, opts.MaxWait),
	}
	c.worker = &worker{opts: opts, scope: c.scope, parser: parser, sitemaps: make(chan struct{}, opts.MaxSitemapsInFlight)}
	return c.run(ctx, seeds)
}

// crawl is the state of one run, owned by the scheduler goroutine.
type crawl struct {
	opts   Options
	f      *frontier.Frontier
	scope  *scope
	worker *worker
	stats  Stats
	keeper *leaseKeeper
	// cluster decides about the other processes of a shared store (a no-op alone on a store).
	cluster cluster

	lost      chan []string // from the lease keeper: origins whose lease is lost
	renewErrs chan error

	tasks   chan task
	results chan result
	workers *workers // the goroutines that take tasks (start)
	writes  chan write
	acks    chan ack
	loads   chan loadReq
	loaded  chan loadResp
	index   chan indexed
	// indexWake wakes the indexer (buffered, one; sends never block) when indexWaker says so.
	indexWake chan struct{}
	waker     indexWaker
	// flush makes the writer commit the group it gathers at once (buffered, one; sends never
	// block): the crawl has nothing to do but wait for it.
	flush chan struct{}

	backlog      []write // writes not handed to the writer yet, oldest first (maxBacklog)
	backlogBytes int     // their writeBytes

	inflight, pendingWrites, pendingLoads int
	pendingNew                            int // new URLs in writes not acknowledged yet (Options.MaxPendingNew)
	indexLag                              int // committed documents not searchable yet, as last reported
	pagesStarted                          int
	stopping                              bool
	fatal                                 error
	lastProgress                          time.Time
	progressDue                           bool // a snapshot was held back by ProgressEvery
	sitemapsQueued                        map[string]int
	// via holds, with Options.OnPage, the redirect chain of each redirect target not requested
	// yet (at most MaxRedirectChains): target URL -> the URLs that redirected to it, in order.
	via     map[string][]string
	refused map[string]bool // origins this process may not connect to (refuse)
	silence *silence        // whether the origins answer at all (issue 27: giving up)
}

func (c *crawl) run(ctx context.Context, seeds []*urlnorm.URL) (Stats, error) {
	now := c.opts.Clock.Now()
	c.stats.Started, c.stats.Now = now, now
	c.sitemapsQueued = map[string]int{}
	if c.opts.OnPage != nil {
		c.via = map[string][]string{}
	}
	c.silence = newSilence(seeds)
	if err := c.seed(ctx, seeds, now); err != nil {
		return c.stats, err
	}
	workCtx, cancelWork := context.WithCancel(ctx)
	defer cancelWork()
	stopWork, stopIndex := c.start(ctx, workCtx)
	c.loop(ctx, cancelWork)
	stopWork()
	c.finish(ctx, stopIndex)
	return c.stats, c.fatal
}

// seed saves the seeds and readies the store (Options.Recrawl), leases the due origins, and
// hands both to the frontier. A run with neither seeds nor due work of its own joins its cluster
// only when something is due there; alone, it fails with ErrNoSeeds.
func (c *crawl) seed(ctx context.Context, seeds []*urlnorm.URL, now time.Time) error {
	st := c.opts.Store
	var b store.Batch
	for _, u := range seeds {
		n := c.scope.newURL(u, store.KindPage, 0, 0)
		n.State, n.Reason, n.DiscoveredAt = store.StateQueued, "", now // a seed is always in scope
		b.New = append(b.New, n)
	}
	if !b.Empty() {
		added, err := st.Commit(ctx, b)
		if err != nil {
			return fmt.Errorf("crawl: save seeds: %w", err)
		}
		c.countAdded(added)
	}
	if r := c.opts.reschedule(now); r != (store.Reschedule{}) {
		if err := st.Reschedule(ctx, r); err != nil {
			return fmt.Errorf("crawl: reschedule fetched URLs: %w", err)
		}
	}
	keys, err := c.keeper.Acquire(ctx, now, now)
	if err != nil {
		return fmt.Errorf("crawl: find due origins: %w", err)
	}
	if len(keys) == 0 && len(seeds) == 0 {
		// On a shared store, other processes may hold the work: join them unless none is due.
		next, err := c.cluster.firstDue(ctx, now)
		if err != nil {
			return err
		}
		if next.IsZero() {
			return ErrNoSeeds
		}
	}
	for _, k := range keys {
		c.f.Want(k, now)
	}
	for _, n := range b.New {
		if _, overflow := c.f.Discover(queuedURL(n), now); overflow {
			c.f.OverflowPersisted(n.Origin, now) // the seeds are durable already
		}
	}
	return nil
}

// start opens the scheduler's channels and starts the goroutines of the run: the workers (their
// requests canceled with workCtx), the writer, the loader, the lease keeper and the indexer, the
// last four on ctx without its cancellation, so that outcomes already received are saved and
// indexed. stopWork closes the workers' tasks, waits for the workers, and drains the writer and
// the lease keeper; stopIndex tells the indexer to catch up and end (see finish).
func (c *crawl) start(ctx, workCtx context.Context) (stopWork, stopIndex func()) {
	st := c.opts.Store
	c.tasks = make(chan task)
	c.results = make(chan result, reportsPerTask*c.opts.Concurrency)
	c.writes = make(chan write, commitGroupMax)
	c.acks = make(chan ack, 1)
	c.loads = make(chan loadReq, loadQueue)
	c.loaded = make(chan loadResp, loadQueue)
	c.index = make(chan indexed, 1)
	c.indexWake = make(chan struct{}, 1)
	c.flush = make(chan struct{}, 1)
	c.workers = &workers{ctx: workCtx, do: c.worker.do, tasks: c.tasks, results: c.results}
	// Outcomes already received are saved, and indexed, even when ctx is canceled.
	saveCtx := context.WithoutCancel(ctx)
	go writer(saveCtx, st, c.opts.Owner, c.opts.Archive, commitWindow, c.writes, c.flush, c.acks)
	go newLoader(st, c.keeper).run(saveCtx, c.loads, c.loaded)
	c.lost, c.renewErrs = make(chan []string, 1), make(chan error, 1)
	stopKeeper := make(chan struct{})
	go c.keeper.run(saveCtx, c.opts.Clock, stopKeeper, c.lost, c.renewErrs)
	indexDone := make(chan struct{})
	go indexer(saveCtx, st, foldEvery, indexDone, c.indexWake, c.index)
	stopWork = func() {
		close(c.tasks)
		c.workers.wait()
		close(c.writes)
		for a := range c.acks {
			c.handleAck(a)
		}
		close(stopKeeper)
		if c.lost != nil {
			for range c.lost { // the run is over; every lease is released below
			}
		}
	}
	return stopWork, func() { close(indexDone) }
}

// finish ends a run whose requests are done and whose outcomes are durable: it drains the
// loader, releases every lease, and waits until the index has caught up with everything
// committed (stopIndex: see start).
func (c *crawl) finish(ctx context.Context, stopIndex func()) {
	st := c.opts.Store
	c.stats.CrawlEnded = c.opts.Clock.Now()
	c.stats.Frontier = c.f.Memory()
	c.opts.Log.Info("crawl requests done; the index catches up", "index_lag", c.indexLag)
	close(c.loads)
	for range c.loaded { // the run is over; a lease a load took is released below
		c.pendingLoads--
	}
	// Issue 29: the store keeps each origin's last gap and why (export --robots shows them).
	if recs := c.f.GapsMoved(); len(recs) > 0 {
		if _, err := st.Commit(context.WithoutCancel(ctx), store.Batch{Origins: recs, Owner: c.opts.Owner}); err != nil {
			c.opts.Log.Warn("origins' gaps not saved", "origins", len(recs), "error", err)
		}
	}
	// Every outcome is durable: the leases go now, not after the index catch-up (no longer
	// renewed, they would lapse meanwhile), so that other processes may take the origins.
	if err := st.ReleaseOrigins(context.WithoutCancel(ctx), c.opts.Owner, nil); err != nil {
		c.fail(fmt.Errorf("crawl: release leases: %w", err))
	}
	// The run ends when the index has caught up with everything committed.
	stopIndex()
	for r := range c.index {
		if r.err != nil {
			c.fail(r.err)
		}
	}
	c.indexLag = 0
	c.snapshot()
}

// loadQueue bounds the loads and refills waiting for the loader.
const loadQueue = 64

// reportsPerTask is how many reports a worker hands back for one task (an answer's early report,
// then its result: see result); the results channel holds that many per worker, so that no
// worker waits to report while the scheduler is busy.
const reportsPerTask = 2

// loop is the scheduler: it asks the frontier for steps and waits for outcomes.
func (c *crawl) loop(ctx context.Context, cancelWork context.CancelFunc) {
	var deadline time.Time
	if c.opts.MaxTime > 0 {
		deadline = c.stats.Started.Add(c.opts.MaxTime)
	}
	for {
		now := c.opts.Clock.Now()
		c.checkStop(ctx, now, deadline, cancelWork)
		if c.stopping && c.inflight == 0 && c.pendingWrites == 0 && c.pendingLoads == 0 {
			return
		}
		if !c.stopping && c.pendingLoads < loadQueue && c.cluster.acquire(now) {
			c.requestLoad(loadReq{acquire: true, now: now}) // lease more of the cluster's due origins
		}
		step := frontier.Step{Kind: frontier.StepWait}
		if !c.stopping && c.inflight < c.opts.Concurrency && c.indexLag <= MaxIndexLag && c.pendingLoads < loadQueue &&
			c.pendingNew <= c.opts.MaxPendingNew && !c.backlogFull() {
			step = c.f.Next(now)
		}
		if c.lapsing(step, now) {
			continue
		}
		c.take(ctx, step, now, deadline)
		c.progress()
	}
}

// checkStop stops the run when it fails, ctx ends, the deadline (MaxTime) passes, nothing
// answered within GiveUpAfter, or MaxPages were started; all but the last also cancel the
// requests in flight (cancelWork).
func (c *crawl) checkStop(ctx context.Context, now, deadline time.Time, cancelWork context.CancelFunc) {
	if c.stopping {
		return
	}
	switch {
	case c.fatal != nil:
		c.stop(StopFailed)
		cancelWork()
	case ctx.Err() != nil:
		c.stop(StopInterrupted)
		cancelWork()
	case !deadline.IsZero() && !now.Before(deadline):
		// A deadline (issue 9): requests in flight are cancelled, their URLs stay queued.
		c.stop(StopMaxTime)
		c.stats.AtLimit = true
		cancelWork()
	case !c.giveUpAt().IsZero() && !now.Before(c.giveUpAt()):
		c.giveUp()
		cancelWork()
	case c.opts.MaxPages > 0 && c.pagesStarted >= c.opts.MaxPages:
		c.stop(StopMaxPages)
		c.stats.AtLimit = true
	}
}

// lapsing reports whether step is a request to an origin whose lease lapses within TTL/3 and was
// not renewed (issue 12: leaseKeeper.Safe), and then hands the request back to the frontier and
// drops the origin: nothing more is sent to it.
func (c *crawl) lapsing(step frontier.Step, now time.Time) bool {
	if step.Kind != frontier.StepFetch && step.Kind != frontier.StepRobots || c.keeper.Safe(step.Origin, now) {
		return false
	}
	if step.Kind == frontier.StepFetch {
		c.f.Canceled(step.URL, now)
	} else {
		c.f.RobotsCanceled(step.Origin, now)
	}
	c.away([]string{step.Origin}, "lease not renewed in time")
	return true
}

// take carries out the frontier's step: a request to a worker, a load to the loader, a write of
// a URL the rules keep out, the end of the run, or a wait for the next event.
func (c *crawl) take(ctx context.Context, step frontier.Step, now, deadline time.Time) {
	switch step.Kind {
	case frontier.StepLoad:
		c.requestLoad(loadReq{origin: step.Origin, limit: step.Limit, now: now})
	case frontier.StepRefill:
		c.requestLoad(loadReq{origin: step.Origin, refill: true, limit: step.Limit, now: now})
	case frontier.StepRobots:
		c.silence.asking(now)
		c.dispatch(task{robots: true, origin: step.Origin, header: step.Header})
	case frontier.StepFetch:
		c.pagesStarted++
		c.silence.asking(now)
		c.dispatch(task{origin: step.Origin, url: step.URL, via: c.via[step.URL.URL]})
	case frontier.StepSkip:
		u := step.URL
		u.State, u.Reason, u.RuleLine = store.StateRobotsDisallowed, step.Reason, step.Verdict.Rule.Line
		u.NextAt = now.Add(c.opts.Revisit) // checked again against a later robots.txt
		c.stats.Disallowed++
		delete(c.via, u.URL)
		c.save(write{origin: step.Origin, batch: store.Batch{Updates: []store.URL{u}}})
	case frontier.StepReject:
		// A crawl-trap defence (issue 9): the reason names it, for the export and dashboard.
		u := step.URL
		u.State, u.Reason = store.StateOutOfScope, step.Reason
		c.stats.Rejected++
		delete(c.via, u.URL)
		c.save(write{origin: step.Origin, batch: store.Batch{Updates: []store.URL{u}}})
	case frontier.StepRelease:
		c.cluster.released()
		c.requestLoad(loadReq{release: []string{step.Origin}, now: now})
	case frontier.StepDone:
		// On a shared store, the cluster may still have work (waitForCluster waits for it).
		// Work due later than --max-wait (revisits) ends a run as on SQLite, whose frontier
		// never loads it.
		if c.stopping || !c.waitForCluster(ctx, now, time.Time{}, deadline) {
			c.stop(StopFinished)
		}
	case frontier.StepWait:
		idle := c.inflight == 0 && c.pendingWrites == 0 && c.pendingLoads == 0 && c.indexLag <= MaxIndexLag
		if idle && !c.stopping && (step.Until.IsZero() || step.Until.Sub(now) > c.opts.MaxWait) {
			if !c.waitForCluster(ctx, now, step.Until, deadline) {
				c.stats.NextDue = earliest(step.Until, c.cluster.nextDue())
				if c.silence.never() {
					// Nothing ever answered: not a crawl to resume later, a failure.
					c.giveUp()
					break
				}
				c.stop(StopWaiting)
			}
			break
		}
		c.flushIfIdle()
		c.wait(ctx, step.Until, earliest(deadline, c.giveUpAt()), idle)
	}
}

// waitForCluster carries out the cluster's decision for a process whose own origins have nothing
// due before localUntil (zero: nothing at all; see cluster.idle). When it reports true it has
// waited or asked the loader, and the loop goes on; false: the run ends.
func (c *crawl) waitForCluster(ctx context.Context, now, localUntil, deadline time.Time) bool {
	step := c.cluster.idle(now, localUntil)
	switch {
	case step.end:
		return false
	case step.ask:
		c.requestLoad(loadReq{acquire: true, next: true, now: now})
	default:
		c.wait(ctx, step.until, deadline, step.idle)
	}
	return true
}

// earliest returns the earlier of two times, a zero time meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// away drops locally the origins whose lease the process lost (issue 12): the lease keeper
// forgets them, and the frontier hands out nothing more of them.
func (c *crawl) away(keys []string, why string) {
	now := c.opts.Clock.Now()
	c.keeper.Lost(keys)
	for _, k := range keys {
		c.f.Away(k, now)
	}
	c.stats.LeasesLost += len(keys)
	c.opts.Log.Warn("origins dropped: lease lost", "origins", len(keys), "reason", why, "first", keys[0])
}

// giveUpAt is when the run gives up if nothing answers until then (see silence.giveUpAt).
func (c *crawl) giveUpAt() time.Time {
	return c.silence.giveUpAt(c.opts.GiveUpAfter)
}

// giveUp ends a run in which nothing answered (issue 27); Stats.Failure holds the last reason.
func (c *crawl) giveUp() {
	c.stats.GaveUp = true
	if c.stats.Failure == "" {
		c.stats.Failure = fmt.Sprintf("no origin answered within %s", c.opts.GiveUpAfter)
	}
	c.stop(StopGaveUp)
}

// noAnswer notes a request (robots.txt or page, of what) of origin that got no answer at all,
// and words it in Stats.Failure; the run gives up at once when every seed's host does not
// resolve and nothing answered (see silence.noAnswer).
func (c *crawl) noAnswer(origin, what string, err error) {
	failure, all := c.silence.noAnswer(origin, what, err)
	if failure != "" {
		c.stats.Failure = failure
	}
	if all && !c.stopping {
		c.giveUp()
	}
}

// plainReason is a network error in the words of the person running the crawl: its innermost
// cause (connection refused, a timeout, a failed handshake), without the operations and
// packages it passed through (issue 27: no package names in user messages).
func plainReason(err error) string {
	var de *net.DNSError
	if errors.As(err, &de) {
		if de.IsNotFound {
			return "host " + de.Name + " does not resolve"
		}
		return "looking up " + de.Name + " failed: " + de.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		var se *os.SyscallError
		if errors.As(oe.Err, &se) {
			return se.Err.Error()
		}
		if oe.Timeout() {
			return "timed out connecting"
		}
		return oe.Err.Error()
	}
	switch fetch.Classify(err) {
	case fetch.KindTimeout:
		return "timed out"
	case fetch.KindTLS:
		return "TLS handshake failed"
	case fetch.KindReset:
		return "connection reset"
	}
	return fetch.Classify(err).String() + " error"
}

func (c *crawl) stop(reason StopReason) {
	if !c.stopping {
		c.stopping = true
		c.stats.StopReason = reason
		attrs := []any{"reason", reason.String()}
		switch reason {
		case StopWaiting:
			attrs = append(attrs, "next_due", c.stats.NextDue, "max_wait", c.opts.MaxWait)
		case StopFailed:
			attrs = append(attrs, "error", c.fatal)
		}
		c.opts.Log.Info("crawl stopping", attrs...)
	}
}

func (c *crawl) fail(err error) {
	if c.fatal == nil {
		c.fatal = err
	}
}

// requestLoad hands a load or refill to the loader; its answer arrives through handleLoaded.
func (c *crawl) requestLoad(r loadReq) {
	c.pendingLoads++
	for {
		select {
		case c.loads <- r:
			return
		case resp := <-c.loaded:
			c.handleLoaded(resp)
		}
	}
}

// handleLoaded gives the loader's answer to the frontier. An origin whose lease another process
// holds is dropped (its URLs stay in the store).
func (c *crawl) handleLoaded(r loadResp) {
	c.pendingLoads--
	now := c.opts.Clock.Now()
	if r.err != nil {
		c.fail(r.err)
	}
	switch {
	case r.req.release != nil:
		return
	case r.req.acquire:
		c.cluster.acquired(r, now)
		for _, k := range r.fresh {
			c.f.Want(k, now)
		}
		return
	}
	if r.req.refill {
		c.f.Refilled(r.req.origin, r.urls, r.req.limit, now)
		return
	}
	if !r.leased || r.err != nil {
		c.f.Drop(r.req.origin)
		return
	}
	c.f.Loaded(r.req.origin, r.load, now)
}

// window is how many due URLs of an origin a load reads.
func (c *crawl) dispatch(t task) {
	c.inflight++
	c.workers.need(c.inflight)
	for {
		writes, w := c.toWriter()
		select {
		case c.tasks <- t:
			return
		case r := <-c.results:
			c.handleResult(r)
		case writes <- w:
			c.handed()
		}
	}
}

// save queues a write for the writer, in the backlog when the writer's queue is full: it never
// blocks (the loop hands the backlog over as the writer takes it, see toWriter).
func (c *crawl) save(w write) {
	c.pendingWrites++
	c.pendingNew += len(w.batch.New)
	c.stats.PendingNewPeak = max(c.stats.PendingNewPeak, c.pendingNew)
	if len(c.backlog) == 0 {
		select {
		case c.writes <- w:
			return
		default:
		}
	}
	c.backlog = append(c.backlog, w)
	c.backlogBytes += writeBytes(w)
}

// toWriter returns the writer's queue and the oldest write of the backlog, or a nil channel
// when the backlog is empty (a select case that never fires); handed calls back once it is sent.
func (c *crawl) toWriter() (chan<- write, write) {
	if len(c.backlog) == 0 {
		return nil, write{}
	}
	return c.writes, c.backlog[0]
}

// handed removes the oldest write of the backlog, sent to the writer.
func (c *crawl) handed() {
	c.backlogBytes -= writeBytes(c.backlog[0])
	c.backlog[0] = write{}
	c.backlog = c.backlog[1:]
	if len(c.backlog) == 0 {
		c.backlog = nil // let the array go
	}
}

// backlogFull reports whether the backlog holds so much that no request may be sent.
func (c *crawl) backlogFull() bool {
	return len(c.backlog) >= maxBacklog || c.backlogBytes >= maxBacklogBytes
}

// flushIfIdle asks the writer to commit what it gathers now, not at the end of its commit
// window, when the crawl is about to wait with no request in flight and outcomes not durable:
// their commit is all it waits for (a robots.txt decision, a pause, or a one-site crawl's refill
// from the store, which waits until every outcome of the origin is durable). With requests in
// flight, the window gathers their outcomes into the same commit.
func (c *crawl) flushIfIdle() {
	if c.inflight > 0 || c.pendingWrites == 0 {
		return
	}
	select {
	case c.flush <- struct{}{}:
	default: // asked already
	}
}

// wait blocks until an outcome arrives, the frontier's next due time, the deadline, or ctx ends.
func (c *crawl) wait(ctx context.Context, until, deadline time.Time, idle bool) {
	if c.progressDue {
		// A snapshot was held back by ProgressEvery: wake when it may be delivered, so a long
		// wait (a pause) never leaves the caller with stale counts (issue 10).
		if p := c.lastProgress.Add(c.opts.ProgressEvery); until.IsZero() || p.Before(until) {
			until = p
		}
	}
	var timer <-chan time.Time
	if !until.IsZero() {
		if !deadline.IsZero() && deadline.Before(until) {
			until = deadline
		}
		ch, stop := c.opts.Clock.At(until, idle)
		defer stop()
		timer = ch
	} else if !deadline.IsZero() {
		ch, stop := c.opts.Clock.At(deadline, idle)
		defer stop()
		timer = ch
	}
	done := ctx.Done()
	if c.stopping {
		done = nil
	}
	writes, w := c.toWriter()
	select {
	case r := <-c.results:
		c.handleResult(r)
	case writes <- w:
		c.handed()
	case a := <-c.acks:
		c.handleAck(a)
	case r := <-c.loaded:
		c.handleLoaded(r)
	case r, ok := <-c.index:
		if ok {
			c.handleIndexed(r)
		}
	case keys, ok := <-c.lost:
		if !ok {
			c.lost = nil // the keeper ended (a store that grants every lease renews nothing)
		} else if len(keys) > 0 {
			c.away(keys, "not renewed in time, or taken over")
		}
	case err := <-c.renewErrs:
		c.opts.Log.Warn("lease renewal failed", "error", err)
	case <-timer:
	case <-done:
	}
}

func (c *crawl) progress() {
	if c.opts.OnProgress == nil {
		return
	}
	now := c.opts.Clock.Now()
	if now.Sub(c.lastProgress) < c.opts.ProgressEvery {
		c.progressDue = true // deliver it before the loop waits (see wait)
		return
	}
	c.progressDue = false
	c.lastProgress = now
	c.snapshot()
	c.opts.OnProgress(c.stats)
}

func (c *crawl) snapshot() {
	c.stats.Now = c.opts.Clock.Now()
	c.stats.InFlight = c.inflight
	c.stats.PendingNew = c.pendingNew
	c.stats.IndexLag = c.indexLag
	c.stats.Frontier = c.f.Memory()
	c.stats.PausedUntil = time.Time{}
	c.stats.Queued, c.stats.Origins, c.stats.OriginsPaused, c.stats.OriginsBlocked = 0, 0, 0, 0
	views := c.f.Origins()
	c.stats.Gaps = make([]OriginGap, 0, len(views))
	for _, o := range views {
		c.stats.Origins++
		c.stats.Gaps = append(c.stats.Gaps, OriginGap{Origin: o.Key, Gap: o.Gap, Reason: o.GapReason})
		c.stats.Queued += o.Queued
		if o.PausedUntil.After(c.stats.Now) {
			c.stats.OriginsPaused++
			if c.stats.PausedUntil.IsZero() || o.PausedUntil.Before(c.stats.PausedUntil) {
				c.stats.PausedUntil = o.PausedUntil
			}
		}
		if o.Unreachable {
			c.stats.OriginsBlocked++
			if !c.silence.wordedFor(o.Key) { // noAnswer worded that one
				c.stats.Failure = o.Key + ": " + o.RobotsReason
			}
		}
	}
}
