package crawler

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// loadReq asks the loader to take over an origin (lease and LoadOrigin) or, with refill set, to
// read the next due URLs of an origin the process holds; with acquire set, to lease due origins
// up to the batch (and with next, to ask when the cluster next has work: store.Shared.NextDue);
// with release set, to give up the leases of those origins.
type loadReq struct {
	origin  string
	refill  bool
	acquire bool
	next    bool // acquire: also ask store.Shared.NextDue
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

// The loader serves the requests that queued up while it was busy together (issue 31: on
// PostgreSQL every request is a round trip, and one worker taking over 4,096 origins one load at
// a time sent its first request after 15 s, and handed 4,096 finished origins back one statement
// each while its fetches waited behind them):
//   - the releases first, in one store.Leases.ReleaseOrigins (an origin is handed back once it
//     has nothing due, so that no load or acquire could want it; a load of it that follows,
//     for a URL found since, leases it again);
//   - then the loads and refills (each of a different origin: the frontier asks one at a time
//     per origin), at most parallelLoads at once on a store shared by a cluster (store.Shared),
//     one at a time alone on its store, as before. On a store that leases several origins in
//     one statement (leaseKeeper.Grouped), the loads' origins are leased first, together: a
//     worker taking over 5,000 origins leased them one durable commit each, 5 ms apiece at a
//     load average of 10, and its first requests waited seconds for them.
//
// The acquires (the cluster asks one at a time) run beside them, in a lane of their own: an
// acquire is one look at every origin of the store (600 ms at a load average of 20), and loads
// waited behind each of them. Beside a load of the same origin it is harmless: both lease it to
// the same owner, the lease keeper counts it once, and the frontier's Want of a loaded origin
// costs a refill. Answers are sent as they are ready; the scheduler takes them in any order.
const parallelLoads = 4

// loader serves loads and refills off the scheduler goroutine, so that the scheduler never waits
// on the store: it answers each request on out, and stops when in is closed, closing out. The
// zero parallel serves one load at a time.
type loader struct {
	queue    store.Queue
	keeper   *leaseKeeper
	parallel int
}

// newLoader returns the loader of a crawl whose leases k keeps: parallelLoads at once on a
// shared store, one alone.
func newLoader(st store.Queue, k *leaseKeeper) loader {
	l := loader{queue: st, keeper: k, parallel: 1}
	if k.shared != nil {
		l.parallel = parallelLoads
	}
	return l
}

func (l loader) run(ctx context.Context, in <-chan loadReq, out chan<- loadResp) {
	// Acquires have a lane of their own: see the loader's rules above.
	acquires := make(chan loadReq, loadQueue)
	var wg sync.WaitGroup
	wg.Go(func() {
		for r := range acquires {
			out <- l.serve(ctx, r)
		}
	})
	defer func() {
		close(acquires)
		wg.Wait()
		close(out)
	}()
	for r := range in {
		group := []loadReq{r}
	gather:
		for {
			select {
			case r, ok := <-in:
				if !ok {
					break gather
				}
				group = append(group, r)
			default:
				break gather
			}
		}
		rest := group[:0]
		for _, r := range group {
			if loadKind(r) == kindAcquire {
				acquires <- r
			} else {
				rest = append(rest, r)
			}
		}
		for _, resp := range l.serveGroup(ctx, rest) {
			out <- resp
		}
	}
}

// serveGroup answers group (no acquire), in order, serving its releases, then its loads and
// refills.
func (l loader) serveGroup(ctx context.Context, group []loadReq) []loadResp {
	resps := make([]loadResp, len(group))
	var releases, loads, others []int
	for i, r := range group {
		switch loadKind(r) {
		case kindRelease:
			releases = append(releases, i)
		case kindLoad:
			loads = append(loads, i)
		default:
			others = append(others, i)
		}
	}
	if len(releases) > 0 {
		keys := make([]string, 0, len(releases)) // never nil: ReleaseOrigins(nil) releases everything
		for _, i := range releases {
			keys = append(keys, group[i].release...)
		}
		err := l.keeper.Release(ctx, keys)
		for _, i := range releases {
			resps[i] = loadResp{req: group[i], err: err}
		}
	}
	l.serveLoads(ctx, group, loads, l.leaseLoads(ctx, group, loads), resps)
	for _, i := range others {
		resps[i] = l.serve(ctx, group[i])
	}
	return resps
}

// Kinds of requests, served in this order within a group (serveGroup).
const (
	kindLoad = iota // a load or a refill
	kindRelease
	kindAcquire
)

func loadKind(r loadReq) int {
	switch {
	case r.release != nil:
		return kindRelease
	case r.acquire:
		return kindAcquire
	}
	return kindLoad
}

// leased is what leaseLoads decided for a load: whether the lease was granted, or the error.
type leased struct {
	ok  bool
	err error
}

// leaseLoads leases, in one statement, the origins of the loads (not refills) group[i] for i in
// at, when there are several and the store can (leaseKeeper.Grouped); nil otherwise, and each
// load then leases its own origin.
func (l loader) leaseLoads(ctx context.Context, group []loadReq, at []int) map[int]leased {
	var keys []string
	var now time.Time // the earliest load's: a lease expired then is expired for every one
	for _, i := range at {
		if r := group[i]; !r.refill {
			keys = append(keys, r.origin)
			if now.IsZero() || r.now.Before(now) {
				now = r.now
			}
		}
	}
	if len(keys) < 2 || !l.keeper.Grouped() {
		return nil
	}
	ok, err := l.keeper.LeaseEach(ctx, keys, now)
	out := make(map[int]leased, len(keys))
	for _, i := range at {
		if !group[i].refill {
			out[i] = leased{ok: ok[group[i].origin], err: err}
		}
	}
	return out
}

// serveLoads serves the loads and refills group[i] for i in at (each of a different origin),
// at most l.parallel at once, into resps[i]; a load whose origin leaseLoads leased (in pre) only
// loads it.
func (l loader) serveLoads(ctx context.Context, group []loadReq, at []int, pre map[int]leased, resps []loadResp) {
	serve := func(i int) loadResp {
		if p, ok := pre[i]; ok {
			return l.load(ctx, group[i], p.ok, p.err)
		}
		return l.serve(ctx, group[i])
	}
	if l.parallel <= 1 || len(at) <= 1 {
		for _, i := range at {
			resps[i] = serve(i)
		}
		return
	}
	slots := make(chan struct{}, l.parallel)
	var wg sync.WaitGroup
	for _, i := range at {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			resps[i] = serve(i)
		})
	}
	wg.Wait()
}

func (l loader) serve(ctx context.Context, r loadReq) loadResp {
	resp := loadResp{req: r}
	switch {
	case r.release != nil:
		resp.err = l.keeper.Release(ctx, r.release)
		return resp
	case r.acquire:
		resp.fresh, resp.err = l.keeper.Acquire(ctx, r.now, r.now)
		if resp.err == nil && r.next && l.keeper.shared != nil {
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
	return l.load(ctx, r, ok, err)
}

// load answers the load r whose lease was decided (ok, err): it reads the origin if leased.
func (l loader) load(ctx context.Context, r loadReq, ok bool, err error) loadResp {
	resp := loadResp{req: r}
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
