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
type Budget struct {
	size int64

	mu      sync.Mutex
	used    int64
	peak    int64
	waiters []*waiter // first come, first served
}

type waiter struct {
	n     int64
	ready chan struct{} // closed when the bytes were granted
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

// Acquire takes n bytes, waiting until they are free or ctx ends. Waiters are
// served in arrival order, so a large request is not starved by small ones.
// On error nothing is held: the error wraps ctx's cause, or is ErrTooLarge
// when n exceeds the budget's size. n <= 0 returns nil at once.
func (b *Budget) Acquire(ctx context.Context, n int64) error {
	if n <= 0 {
		return nil
	}
	if n > b.size {
		return fmt.Errorf("%w (%d > %d bytes)", ErrTooLarge, n, b.size)
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.size {
		b.take(n)
		b.mu.Unlock()
		return nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		select {
		case <-w.ready: // granted while we were giving up: hand it back
			b.used -= n
			b.grant()
		default:
			b.remove(w)
			b.grant() // a large waiter leaving may unblock smaller ones behind it
		}
		return fmt.Errorf("budget: wait for %d bytes: %w", n, context.Cause(ctx))
	}
}

// TryAcquire takes n bytes if they are free now and nobody is waiting, and
// reports whether it did.
func (b *Budget) TryAcquire(n int64) bool {
	if n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiters) > 0 || b.used+n > b.size {
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

// grant wakes waiters in order while the first one fits. mu must be held.
func (b *Budget) grant() {
	for len(b.waiters) > 0 {
		w := b.waiters[0]
		if b.used+w.n > b.size {
			return
		}
		b.take(w.n)
		b.waiters = b.waiters[1:]
		close(w.ready)
	}
}

func (b *Budget) remove(w *waiter) {
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			return
		}
	}
}
