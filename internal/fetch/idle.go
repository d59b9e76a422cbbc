package fetch

import (
	"context"
	"io"
	"sync"
	"time"
)

// idleTimer cancels a request when its body makes no progress for d: a
// server that sent its header and then stalls (or drips nothing) is a
// network failure, not a slow success. It runs only while a read of the
// body waits for the network (see idleReader), so neither decoding nor a
// wait for memory budget counts. A nil *idleTimer does nothing.
type idleTimer struct {
	d      time.Duration
	cancel context.CancelCauseFunc

	mu sync.Mutex
	t  *time.Timer // nil while paused or stopped
}

func newIdleTimer(d time.Duration, cancel context.CancelCauseFunc) *idleTimer {
	return &idleTimer{d: d, cancel: cancel}
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

// idleReader runs its timer only while a Read waits on r: the time a
// decoder spends working on what arrived, or a consumer on what it was
// given, is not the server's.
type idleReader struct {
	r     io.Reader
	timer *idleTimer
}

func (ir idleReader) Read(p []byte) (int, error) {
	ir.timer.resume()
	n, err := ir.r.Read(p)
	ir.timer.pause()
	return n, err
}
