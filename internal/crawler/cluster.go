package crawler

import (
	"context"
	"fmt"
	"time"
)

// cluster holds the scheduler's decisions about the other processes that share its store (issue
// 12): when to lease more of their due origins, and whether a process whose own origins are done
// goes on waiting for theirs. It keeps the state those decisions need (an acquire under way, the
// cluster's last answers), so that the scheduler keeps its own only; the scheduler carries the
// decisions out (a loadReq with acquire set, a wait). Sending to an origin only while its lease is
// safe, and renewing leases, are the lease keeper's (leaseKeeper.Safe, leaseKeeper.run).
//
// newCluster returns soloCluster, a no-op, for a store that grants every lease (one process), and
// a *sharedCluster otherwise. Not safe for concurrent use: the scheduler goroutine owns it.
type cluster interface {
	// firstDue is, for a run with no seed and no due origin of its own, when the cluster next
	// has work (zero: none; the run has nothing to do).
	firstDue(ctx context.Context, now time.Time) (time.Time, error)
	// acquire reports whether the scheduler should now ask the loader to lease more of the
	// cluster's due origins (an acquire without NextDue); true marks the acquire under way until
	// acquired takes its answer.
	acquire(now time.Time) bool
	// acquired takes the loader's answer to an acquire (loadResp.fresh, loadResp.next).
	acquired(r loadResp, now time.Time)
	// released notes that an origin was handed back: the batch has room, look for more at once
	// if the last look found it full.
	released()
	// idle decides what a process whose own origins have nothing due before localUntil (zero:
	// nothing at all) does next: see idleStep.
	idle(now, localUntil time.Time) idleStep
	// nextDue is when the cluster next has work, as last asked (zero: nothing, or never asked).
	nextDue() time.Time
}

// idleStep is cluster.idle's decision for a process whose own origins are done.
type idleStep struct {
	// end: nothing is due cluster-wide within MaxWait; the run ends.
	end bool
	// ask: send an acquire that also asks store.Shared.NextDue (marked under way).
	ask bool
	// Otherwise the scheduler waits until until (zero: for an outcome or an answer), idle as
	// clock.Clock.At's idle says.
	until time.Time
	idle  bool
}

// newCluster returns the cluster of a crawl whose leases k keeps; a process waits for the
// cluster's work only while some is due within maxWait (Options.MaxWait).
func newCluster(k *leaseKeeper, maxWait time.Duration) cluster {
	if k.shared == nil {
		return soloCluster{}
	}
	return &sharedCluster{keeper: k, maxWait: maxWait}
}

// soloCluster is the cluster of a process alone on its store: there is nothing to lease from
// others and nothing to wait for.
type soloCluster struct{}

func (soloCluster) firstDue(context.Context, time.Time) (time.Time, error) { return time.Time{}, nil }
func (soloCluster) acquire(time.Time) bool                                 { return false }
func (soloCluster) acquired(loadResp, time.Time)                           {}
func (soloCluster) released()                                              {}
func (soloCluster) idle(time.Time, time.Time) idleStep                     { return idleStep{end: true} }
func (soloCluster) nextDue() time.Time                                     { return time.Time{} }

// sharedCluster is the cluster of a process on a shared store (store.Shared).
type sharedCluster struct {
	keeper  *leaseKeeper
	maxWait time.Duration
	// acquiring: an acquire is with the loader. acquiredAt: when the last one answered (zero:
	// acquire again as soon as the batch has room). checked: when the last one that asked
	// store.Shared.NextDue answered (zero: ask again), and due what it said.
	acquiring                bool
	acquiredAt, checked, due time.Time
	// full: the batch had no room after the last acquire, which may have left due origins.
	full bool
}

// maxClusterPoll bounds how long a process whose own origins are done waits between two looks
// at the cluster (an acquire with store.Shared.NextDue): how long it may lag behind a process
// that releases origins or ends.
const maxClusterPoll = time.Second

// poll is how often an idle process looks at the cluster: every TTL/leaseRenewDivisor, at most
// maxClusterPoll, so that a dead process's origins are taken over soon after its leases expire.
func (s *sharedCluster) poll() time.Duration { return min(s.keeper.margin(), maxClusterPoll) }

func (s *sharedCluster) firstDue(ctx context.Context, now time.Time) (time.Time, error) {
	next, err := s.keeper.shared.NextDue(ctx, s.keeper.owner, now)
	if err != nil {
		return time.Time{}, fmt.Errorf("crawl: find due origins: %w", err)
	}
	return next, nil
}

// acquire: when the batch has room and the last acquire answered at least a poll ago (or found
// origins, or one was released since).
func (s *sharedCluster) acquire(now time.Time) bool {
	if s.acquiring || !s.keeper.Room() || !s.acquiredAt.IsZero() && now.Before(s.acquiredAt.Add(s.poll())) {
		return false
	}
	s.acquiring = true
	return true
}

func (s *sharedCluster) acquired(r loadResp, now time.Time) {
	s.acquiring = false
	s.acquiredAt = now
	s.full = !s.keeper.Room()
	if r.req.next {
		s.checked, s.due = now, r.next
	}
	if len(r.fresh) > 0 {
		// There may be more: acquire again when there is room, and look at the cluster afresh
		// when this work is done.
		s.acquiredAt, s.checked = time.Time{}, time.Time{}
	}
}

// released: an origin handed back makes room; acquire again at once only if the last acquire
// found the batch full (issue 31: an acquire, one look at every origin of the store, after
// every release at the end of a crawl, when nothing was left to take, held the releases up).
// Otherwise nothing more was due then, and the next poll looks again.
func (s *sharedCluster) released() {
	if s.full {
		s.acquiredAt = time.Time{}
	}
}

// idle goes on only while something is due cluster-wide within maxWait (issue 12), as the last
// acquire's store.Shared.NextDue said, asked again every poll: it waits for an acquire under
// way, asks when the last answer is a poll old, and otherwise waits until the next poll or the
// earlier due time.
func (s *sharedCluster) idle(now, localUntil time.Time) idleStep {
	if s.acquiring {
		return idleStep{}
	}
	poll := s.poll()
	if s.checked.IsZero() || !now.Before(s.checked.Add(poll)) {
		s.acquiring = true
		return idleStep{ask: true}
	}
	next := earliest(localUntil, s.due)
	if next.IsZero() || next.Sub(now) > s.maxWait {
		return idleStep{end: true}
	}
	until := s.checked.Add(poll)
	if next.After(now) && next.Before(until) {
		until = next
	}
	return idleStep{until: until, idle: true}
}

func (s *sharedCluster) nextDue() time.Time { return s.due }
