// Package clock is the crawl's source of time, so that tests and the demo can run pauses and
// cache lifetimes of hours without waiting for them (docs/design.md: time is a parameter).
package clock

import (
	"sync"
	"time"
)

// Clock tells the time and wakes a waiter at a given time.
type Clock interface {
	Now() time.Time
	// At returns a channel that receives once the clock reaches t, and a stop function. idle
	// tells the clock that the caller has nothing in flight: nothing but time can change its
	// state, so a Virtual clock jumps straight to t. A Real clock ignores idle.
	At(t time.Time, idle bool) (<-chan time.Time, func())
}

// Real is the wall clock. The zero value is ready to use.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// At waits on a real timer.
func (Real) At(t time.Time, _ bool) (<-chan time.Time, func()) {
	tm := time.NewTimer(time.Until(t))
	return tm.C, func() { tm.Stop() }
}

// Virtual is a clock that stands still until it is advanced, either by Advance or by an idle
// waiter (see Clock.At). It is safe for concurrent use. Create it with NewVirtual.
type Virtual struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewVirtual returns a virtual clock that reads start.
func NewVirtual(start time.Time) *Virtual { return &Virtual{now: start} }

// Now returns the virtual time.
func (v *Virtual) Now() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now
}

// Advance moves the clock forward by d (never backward) and wakes the waiters that are due.
func (v *Virtual) Advance(d time.Duration) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if d > 0 {
		v.set(v.now.Add(d))
	}
}

// Waiting reports how many waiters (Clock.At) have not fired or been stopped: a test advances the
// clock once the goroutine it drives is waiting, instead of guessing how long that takes.
func (v *Virtual) Waiting() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.waiters)
}

// set must be called with mu held.
func (v *Virtual) set(t time.Time) {
	if t.After(v.now) {
		v.now = t
	}
	kept := v.waiters[:0]
	for _, w := range v.waiters {
		if !w.at.After(v.now) {
			w.ch <- v.now
			continue
		}
		kept = append(kept, w)
	}
	v.waiters = kept
}

// At implements Clock: an idle waiter moves the clock to t at once.
func (v *Virtual) At(t time.Time, idle bool) (<-chan time.Time, func()) {
	ch := make(chan time.Time, 1)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.waiters = append(v.waiters, waiter{at: t, ch: ch})
	if idle {
		v.set(t)
	} else {
		v.set(v.now) // wake at once when t is not in the future
	}
	stop := func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		for i, w := range v.waiters {
			if w.ch == ch {
				v.waiters = append(v.waiters[:i], v.waiters[i+1:]...)
				return
			}
		}
	}
	return ch, stop
}
