package fetch

import (
	"context"
	"io"
	"sync"
	"time"
)

// idleTimer cancels a request when its body makes no progress for d: a
// server that sent its header and then stalls (or drips nothing) is a
// network failure, not a slow success. It is reset by every read that
// returns bytes, and paused while the reader waits for memory budget, which
// is not the server's fault. A nil *idleTimer does nothing.
type idleTimer struct {
	d      time.Duration
	cancel context.CancelCauseFunc

	mu sync.Mutex
	t  *time.Timer // nil while paused or stopped
}

func newIdleTimer(d time.Duration, cancel context.CancelCauseFunc) *idleTimer {
	it := &idleTimer{d: d, cancel: cancel}
	it.resume()
	return it
}

func (it *idleTimer) fire() { it.cancel(ErrBodyStalled) }

// resume starts a fresh idle period.
func (it *idleTimer) resume() {
	if it == nil {
		return
	}
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.t != nil {
		it.t.Reset(it.d)
		return
	}
	it.t = time.AfterFunc(it.d, it.fire)
}

// pause stops the timer until resume.
func (it *idleTimer) pause() {
	if it == nil {
		return
	}
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.t != nil {
		it.t.Stop()
		it.t = nil
	}
}

// idleReader resets its timer whenever r returns bytes.
type idleReader struct {
	r     io.Reader
	timer *idleTimer
}

func (ir idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.timer.resume()
	}
	return n, err
}
