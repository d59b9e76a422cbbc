package fetch

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fractle/mandelbot/internal/budget"
)

// Memory costs charged to the budget besides the body buffer itself. They
// are upper bounds of what the decoders allocate, so the budget over-counts
// rather than under-counts.
const (
	// firstGrant is the most a Get charges before it knows the body is large:
	// a body that stays under it never asks the budget twice. Past it, the
	// request takes everything it could still need in one step, so two
	// requests can never each hold half and wait for the other (see
	// [Options.MaxBufferedBytes]).
	firstGrant = 1 << 20
	// flateCost covers a gzip, zlib or deflate decoder: a 32 KiB window and
	// its tables.
	flateCost = 64 << 10
	// brotliOverhead is charged on top of a brotli stream's window (its ring
	// buffer): block and dictionary tables.
	brotliOverhead = 256 << 10
	// brotliMaxWindow is the largest window of standard brotli (RFC 7932:
	// WBITS 24, 16 MiB less 16 bytes); large-window brotli is not HTTP content.
	brotliMaxWindow = 1 << 24
	// zstdOverhead is charged on top of zstdMaxWindow: a block buffer (128
	// KiB) and the decoder's tables.
	zstdOverhead = 512 << 10
	// streamCost covers the buffers a Stream holds between the network and
	// its consumer.
	streamCost = 64 << 10
)

// decoderCost is what undoing coding c can make us hold besides the output,
// judged from the first byte of the stream (brotli states its window there).
func decoderCost(c coding, first byte) int64 {
	switch c {
	case codingGzip, codingDeflate:
		return flateCost
	case codingBrotli:
		return brotliWindow(first) + brotliOverhead
	case codingZstd:
		return zstdMaxWindow + zstdOverhead
	}
	return 0
}

// brotliWindow reads the window size from the first byte of a brotli stream
// (RFC 7932 §9.1, WBITS). A value the decoder will reject costs the maximum,
// to be safe.
func brotliWindow(b byte) int64 {
	if b&1 == 0 {
		return 1 << 16
	}
	if n := (b >> 1) & 7; n != 0 {
		return 1 << (17 + n)
	}
	switch n := (b >> 4) & 7; n {
	case 0:
		return 1 << 17
	case 1: // large-window brotli: not valid HTTP content
		return brotliMaxWindow
	default:
		return 1 << (8 + n)
	}
}

// charge is what one response holds of the client's budget. It is released
// once, by Response.Release, by a cleanup when the Response is collected
// unreleased, or by Get itself when there is no Response to hand over.
type charge struct {
	b *budget.Budget
	// collecting, shared by a client's charges, is set while one of them
	// forces a collection, so that waiters do not all force one at once.
	collecting *atomic.Bool
	mu         sync.Mutex
	held       int64
}

// first takes a request's first n bytes, leaving room in the budget for the
// rest it may need (full-n), so that holders waiting to grow never deadlock
// (see budget.Budget). A request that will never grow (n == full: a body
// whose Content-Length fits its first buffer, a stream) never waits while
// holding, so it takes its bytes as soon as they are free, ahead of requests
// that may grow: a small page is not held up behind a bomb. It must be the
// charge's first acquisition.
func (c *charge) first(ctx context.Context, n, full int64) error {
	if n <= 0 {
		return nil
	}
	try := func() bool { return c.b.TryAcquireLeaving(n, full-n) }
	acquire := func(ctx context.Context) error { return c.b.AcquireLeaving(ctx, n, full-n) }
	if n >= full {
		try = func() bool { return c.b.TryAcquire(n) }
		acquire = func(ctx context.Context) error { return c.b.Acquire(ctx, n) }
	}
	if !try() {
		if err := c.wait(ctx, acquire); err != nil {
			return err
		}
	}
	c.add(n)
	return nil
}

// grow makes sure at least need bytes are held: past what is held it takes
// everything up to full at once, so a request grows at most once.
func (c *charge) grow(ctx context.Context, need, full int64) error {
	held := c.Held()
	if need <= held {
		return nil
	}
	want := max(need, full) - held
	if !c.b.TryAcquire(want) {
		if err := c.wait(ctx, func(ctx context.Context) error { return c.b.Acquire(ctx, want) }); err != nil {
			return err
		}
	}
	c.add(want)
	return nil
}

// wait runs acquire, which has to wait: the memory is not free now. The
// body's idle timer is not running (it runs only inside a read of the
// body): waiting for memory is not the server stalling.
func (c *charge) wait(ctx context.Context, acquire func(context.Context) error) error {
	if c.b.Used() > 0 {
		c.collectSoon()
	}
	if err := acquire(ctx); err != nil {
		return fmt.Errorf("memory budget: %w", err)
	}
	return nil
}

func (c *charge) add(n int64) {
	c.mu.Lock()
	c.held += n
	c.mu.Unlock()
}

// releaseSome gives back n of the bytes held (at most what is held).
func (c *charge) releaseSome(n int64) {
	c.mu.Lock()
	n = min(n, c.held)
	c.held -= n
	c.mu.Unlock()
	c.b.Release(n)
}

// collectSoon starts a garbage collection in the background, unless one
// started by a charge of the same client is still running, so that
// Responses dropped without Release give their charge back (their cleanups
// run after it) and wake the waiters. It is the safety net for a caller
// that forgets Release: without it, with every request waiting for memory,
// nothing would allocate and the collection that frees it might not come
// until the runtime's two-minute forced one.
func (c *charge) collectSoon() {
	if c.collecting == nil || !c.collecting.CompareAndSwap(false, true) {
		return
	}
	go func() {
		runtime.GC()
		c.collecting.Store(false)
	}()
}

// release gives back everything held. It is safe to call more than once.
func (c *charge) release() {
	c.mu.Lock()
	n := c.held
	c.held = 0
	c.mu.Unlock()
	c.b.Release(n)
}

// Held is what the charge holds now; for tests.
func (c *charge) Held() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held
}
