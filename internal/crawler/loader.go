package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// loadReq asks the loader to take over an origin (lease and LoadOrigin) or, with refill set, to
// read the next due URLs of an origin the process holds; with acquire set, to lease due origins
// up to the batch and ask when the cluster next has work (store.Shared.NextDue); with release
// set, to give up the leases of those origins.
type loadReq struct {
	origin  string
	refill  bool
	acquire bool
	release []string
	limit   int
	now     time.Time
}

// loadResp is the loader's answer to a loadReq.
type loadResp struct {
	req    loadReq
	leased bool // load: the lease was granted
	load   store.OriginLoad
	urls   []store.URL // refill
	fresh  []string    // acquire: origins newly leased
	next   time.Time   // acquire: store.Shared.NextDue (zero: nothing due elsewhere)
	err    error
}

// loader serves loads and refills off the scheduler goroutine, so that the scheduler never waits
// on the store: it answers each request on out, in order, and stops when in is closed.
type loader struct {
	queue  store.Queue
	keeper *leaseKeeper
}

func (l loader) run(ctx context.Context, in <-chan loadReq, out chan<- loadResp) {
	defer close(out)
	for r := range in {
		out <- l.serve(ctx, r)
	}
}

func (l loader) serve(ctx context.Context, r loadReq) loadResp {
	resp := loadResp{req: r}
	switch {
	case r.release != nil:
		resp.err = l.keeper.Release(ctx, r.release)
		return resp
	case r.acquire:
		resp.fresh, resp.err = l.keeper.Acquire(ctx, r.now, r.now)
		if resp.err == nil && l.keeper.shared != nil {
			resp.next, resp.err = l.keeper.shared.NextDue(ctx, l.keeper.owner, r.now)
			if resp.err != nil {
				resp.err = fmt.Errorf("crawl: next due origin: %w", resp.err)
			}
		}
		return resp
	}
	if r.refill {
		resp.urls, resp.err = l.queue.DueURLs(ctx, r.origin, r.now, r.limit)
		if resp.err != nil {
			resp.err = fmt.Errorf("crawl: read queue of %s: %w", r.origin, resp.err)
		}
		return resp
	}
	ok, err := l.keeper.Lease(ctx, r.origin, r.now)
	if err != nil {
		resp.err = fmt.Errorf("crawl: lease %s: %w", r.origin, err)
		return resp
	}
	if !ok {
		return resp
	}
	resp.leased = true
	resp.load, err = l.queue.LoadOrigin(ctx, r.origin, r.now, r.limit)
	if err != nil {
		resp.err = fmt.Errorf("crawl: load origin %s: %w", r.origin, err)
	}
	return resp
}
