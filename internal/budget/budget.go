package budget

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrTooLarge is returned by Acquire for a request larger than the whole
// budget: it could never be granted.
var ErrTooLarge = errors.New("budget: request larger than the whole budget")

// Budget is a byte budget. Create it with New; the zero value is not usable.
// It is safe for concurrent use.
//
// There are two kinds of request. AcquireLeaving is for the first bytes of a
// holder that may later need more: it is granted only while the bytes the
// holder may still need stay free, and only when no Acquire waits. Acquire is
// for those later bytes: it is served first, to any waiter that fits. A
// holder that takes its first bytes with AcquireLeaving(n, rest) and later
// at most rest more with Acquire never deadlocks with other such holders:
// of the holders waiting, the one admitted last saw room for its rest beside
// all of them, so it fits once the holders that are not waiting release.
type Budget struct {
	size int64

	mu     sync.Mutex
	used   int64
	peak   int64
	urgent []*waiter // Acquire: first fit
	queue  []*waiter // AcquireLeaving: first come, first served
}

type waiter struct {
	n, leave int64
	ready    chan struct{} // closed when the bytes were granted
}

// New returns a budget of size bytes. A size below 1 is raised to 1.
func New(size int64) *Budget {
	return &Budget{size: max(size, 1)}
}

// Size is the budget's size in bytes.
func (b *Budget) Size() int64 { return b.size }

// Used is how many bytes are held now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak is the most bytes held at once since New.
func (b *Budget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Acquire takes n bytes, waiting until they are free or ctx ends. Acquire
// waiters are served before AcquireLeaving waiters, each as soon as it fits.
// On error nothing is held: the error wraps ctx's cause, or is ErrTooLarge
// when n exceeds the budget's size. n <= 0 returns nil at once.
func (b *Budget) Acquire(ctx context.Context, n int64) error {
	return b.wait(ctx, &waiter{n: n}, true)
}

// AcquireLeaving takes n bytes once leave more bytes would still be free
// after it, waiting (first come, first served, after every Acquire waiter)
// until then or until ctx ends. leave is what the caller may still ask for
// with Acquire while holding these bytes. Errors are Acquire's; n+leave
// over the size is ErrTooLarge.
func (b *Budget) AcquireLeaving(ctx context.Context, n, leave int64) error {
	return b.wait(ctx, &waiter{n: n, leave: max(leave, 0)}, false)
}

func (b *Budget) wait(ctx context.Context, w *waiter, urgent bool) error {
	if w.n <= 0 {
		return nil
	}
	if w.n+w.leave > b.size {
		return fmt.Errorf("%w (%d+%d > %d bytes)", ErrTooLarge, w.n, w.leave, b.size)
	}
	b.mu.Lock()
	if b.fits(w, urgent) {
		b.take(w.n)
		b.mu.Unlock()
		return nil
	}
	w.ready = make(chan struct{})
	if urgent {
		b.urgent = append(b.urgent, w)
	} else {
		b.queue = append(b.queue, w)
	}
	b.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		select {
		case <-w.ready: // granted while we were giving up: hand it back
			b.used -= w.n
		default:
			b.urgent = remove(b.urgent, w)
			b.queue = remove(b.queue, w)
		}
		b.grant() // a large waiter leaving may unblock others behind it
		return fmt.Errorf("budget: wait for %d bytes: %w", w.n, context.Cause(ctx))
	}
}

// fits reports whether w can be granted now, ahead of nobody. mu must be held.
func (b *Budget) fits(w *waiter, urgent bool) bool {
	if urgent {
		return b.used+w.n <= b.size
	}
	return len(b.urgent) == 0 && len(b.queue) == 0 && b.used+w.n+w.leave <= b.size
}

// TryAcquire takes n bytes if they are free now, and reports whether it did.
// Like Acquire, it goes before AcquireLeaving waiters.
func (b *Budget) TryAcquire(n int64) bool {
	if n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.size {
		return false
	}
	b.take(n)
	return true
}

// TryAcquireLeaving takes n bytes if they are free now with leave more to
// spare and nobody waits, and reports whether it did.
func (b *Budget) TryAcquireLeaving(n, leave int64) bool {
	if n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.fits(&waiter{n: n, leave: max(leave, 0)}, false) {
		return false
	}
	b.take(n)
	return true
}

// Release gives back n bytes taken by Acquire or TryAcquire. Releasing more
// than is held panics: it is a bookkeeping bug that would silently lift the
// bound.
func (b *Budget) Release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.used {
		panic(fmt.Sprintf("budget: release of %d bytes with %d held", n, b.used))
	}
	b.used -= n
	b.grant()
}

// take must be called with mu held.
func (b *Budget) take(n int64) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

// grant wakes Acquire waiters that fit, in order, then, when none is left
// waiting, AcquireLeaving waiters in order while the first one fits. mu must
// be held.
func (b *Budget) grant() {
	kept := b.urgent[:0]
	for _, w := range b.urgent {
		if b.used+w.n <= b.size {
			b.take(w.n)
			close(w.ready)
			continue
		}
		kept = append(kept, w)
	}
	clear(b.urgent[len(kept):])
	b.urgent = kept
	for len(b.urgent) == 0 && len(b.queue) > 0 {
		w := b.queue[0]
		if b.used+w.n+w.leave > b.size {
			return
		}
		b.take(w.n)
		b.queue = b.queue[1:]
		close(w.ready)
	}
}

func remove(ws []*waiter, w *waiter) []*waiter {
	for i, x := range ws {
		if x == w {
			return append(ws[:i], ws[i+1:]...)
		}
	}
	return ws
}
