package testweb

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Request is one logged request, written when the request arrived and before any byte
// of the answer, with what the web decided to do about it.
type Request struct {
	Seq    int    // arrival order across the whole web, from 1
	Key    string // the site that received it
	Host   string // the Host header as sent
	Method string
	Path   string // path and query exactly as requested
	Proto  string // "HTTP/1.1", "HTTP/2.0"
	// Header is the request header. It is shared by every copy of the log: read it,
	// do not modify it.
	Header http.Header
	At     time.Time // Options.Now() on arrival
	Status int       // status answered; 0 when Action is Reset, Hang or Drop
	Action Action
	// Location and RetryAfter are the Location and Retry-After headers answered, as
	// sent ("" when none), so checks such as [Web.BeforeRobots] need no other record.
	Location   string
	RetryAfter string
}

// String formats the request as a log line: "#3 a GET /robots.txt -> 200".
func (r Request) String() string {
	s := fmt.Sprintf("#%d %s %s %s -> %d", r.Seq, r.Key, r.Method, r.Path, r.Status)
	if r.Action != Serve {
		s += " (" + r.Action.String() + ")"
	}
	return s
}

// requestLog keeps the first max requests and counts the rest.
type requestLog struct {
	mu      sync.Mutex
	max     int // < 0: keep nothing
	seq     int
	entries []Request
	dropped int
}

// add numbers r, keeps it if there is room, and returns it numbered.
func (l *requestLog) add(r Request) Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	r.Seq = l.seq
	if len(l.entries) >= l.max {
		l.dropped++
		return r
	}
	l.entries = append(l.entries, r)
	return r
}

// Requests returns every logged request in arrival order. The slice is the caller's
// (the Header maps inside are shared and read-only).
func (w *Web) Requests() []Request {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	return append([]Request(nil), w.log.entries...)
}

// RequestsTo returns the logged requests received by the site with key, in arrival order.
func (w *Web) RequestsTo(key string) []Request {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	var out []Request
	for _, r := range w.log.entries {
		if r.Key == key {
			out = append(out, r)
		}
	}
	return out
}

// Count returns how many logged requests the site with key received for pathAndQuery.
func (w *Web) Count(key, pathAndQuery string) int {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	n := 0
	for _, r := range w.log.entries {
		if r.Key == key && r.Path == pathAndQuery {
			n++
		}
	}
	return n
}

// Dropped returns how many requests arrived after the log was full and were not kept.
func (w *Web) Dropped() int {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	return w.log.dropped
}

// busy counts running handlers and lets callers wait for none.
type busy struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while n == 0
}

func (b *busy) enter() {
	b.mu.Lock()
	if b.n == 0 {
		b.idle = make(chan struct{})
	}
	b.n++
	b.mu.Unlock()
}

func (b *busy) leave() {
	b.mu.Lock()
	b.n--
	if b.n == 0 {
		close(b.idle)
		b.idle = nil
	}
	b.mu.Unlock()
}

func (b *busy) wait(ctx context.Context) error {
	b.mu.Lock()
	ch := b.idle
	b.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitIdle blocks until no request is being handled or ctx ends, and returns ctx's
// error in the latter case. A test uses it to see that a hanging request was released
// (its client gave up) without sleeping. New requests may start as soon as it returns.
func (w *Web) WaitIdle(ctx context.Context) error {
	if err := w.busy.wait(ctx); err != nil {
		return fmt.Errorf("testweb: wait idle: %w", err)
	}
	return nil
}
