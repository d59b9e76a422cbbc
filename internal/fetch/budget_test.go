package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
)

// issue 9 ("one memory budget"): a buffered body is charged to the budget until Release; after
// Release nothing is held and Body is gone.
func TestBodyChargedUntilRelease(t *testing.T) {
	body := strings.Repeat("x", 3<<20) // past the first grant: the request grows once
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	resp := get(t, c, Request{URL: srv.URL})
	if string(resp.Body) != body {
		t.Fatalf("body of %d bytes", len(resp.Body))
	}
	if held := b.Used(); held < int64(len(body)) {
		t.Fatalf("budget holds %d bytes for a body of %d", held, len(body))
	}
	resp.Release()
	resp.Release() // twice is harmless
	if b.Used() != 0 || resp.Body != nil {
		t.Fatalf("after Release: %d bytes held, body %d bytes", b.Used(), len(resp.Body))
	}
}

// A Response dropped without Release gives its charge back once collected, so a forgetful
// caller slows the crawl down but cannot stop it.
func TestDroppedResponseGivesItsChargeBack(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "small") })
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	get(t, c, Request{URL: srv.URL}) // dropped
	for i := 0; b.Used() != 0; i++ {
		if i == 100 {
			t.Fatalf("%d bytes still held by a collected Response", b.Used())
		}
		runtime.GC()
		runtime.Gosched()
	}
}

// A budget too small for one request at the client's limits is an option error.
func TestNewRejectsABudgetSmallerThanOneRequest(t *testing.T) {
	if _, err := New(Options{MaxBufferedBytes: 8 << 20}); err == nil || !strings.Contains(err.Error(), "memory budget") {
		t.Fatalf("err %v, want the memory budget named", err)
	}
	if _, err := New(Options{MaxBufferedBytes: 8 << 20, MaxDecodedBytes: 1 << 20, MaxRawBytes: 1 << 20}); err == nil {
		t.Fatal("a brotli window of 16 MiB does not fit in 8 MiB, yet New accepted it")
	}
	if _, err := New(Options{MaxBufferedBytes: 32 << 20, MaxDecodedBytes: 1 << 20}); err != nil {
		t.Fatal(err)
	}
}

// issue 9: Stream hands the decoded body to its consumer without buffering it; the limits
// apply, and only the stream's buffers and decoder are charged, and only while it runs.
func TestStreamDecodesUnderLimits(t *testing.T) {
	payload := bytes.Repeat([]byte("0123456789"), 1<<20) // 10 MiB
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		w.Write(encode(t, codingBrotli, payload))
	})
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	var n int64
	var heldDuring int64
	resp, err := c.Stream(context.Background(), Request{URL: srv.URL, MaxDecodedBytes: 4 << 20},
		func(resp *Response, body io.Reader) error {
			heldDuring = b.Used()
			var err error
			n, err = io.Copy(io.Discard, body)
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4<<20 || !resp.Truncated || resp.TruncatedBy != LimitDecoded || resp.Body != nil {
		t.Errorf("read %d, truncated %v by %v; want 4 MiB cut at the decoded limit", n, resp.Truncated, resp.TruncatedBy)
	}
	if heldDuring == 0 || heldDuring > brotliMaxWindow+brotliOverhead+streamCost || b.Used() != 0 {
		t.Errorf("held %d while streaming (want a window and buffers), %d after", heldDuring, b.Used())
	}
}

// A stalled body in a Stream is ErrBodyStalled, ahead of the consumer's own complaint.
func TestStreamStallIsAnError(t *testing.T) {
	block := newBlocker(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		io.WriteString(w, "<urlset>")
		w.(http.Flusher).Flush()
		block.wait(r)
	})
	c := newClient(t, loopback(Options{BodyIdleTimeout: 200 * time.Millisecond}))
	consumerErr := errors.New("parse failed")
	resp, err := c.Stream(context.Background(), Request{URL: srv.URL}, func(_ *Response, body io.Reader) error {
		io.Copy(io.Discard, body)
		return consumerErr
	})
	if !errors.Is(err, ErrBodyStalled) || errors.Is(err, consumerErr) || resp == nil || resp.Status != 200 {
		t.Fatalf("resp %v, err %v; want the status and ErrBodyStalled", resp, err)
	}
	// Without a fault of the body, the consumer's error is returned as is.
	srv2 := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	if _, err := c.Stream(context.Background(), Request{URL: srv2.URL}, func(*Response, io.Reader) error { return consumerErr }); err != consumerErr {
		t.Fatalf("err %v, want the consumer's", err)
	}
}

// The idle timer is paused while a request waits for budget: waiting for memory is not the
// server stalling, and ends at the total timeout instead.
func TestWaitingForBudgetIsNotAStall(t *testing.T) {
	body := strings.Repeat("y", 2<<20)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b, BodyIdleTimeout: 50 * time.Millisecond, TotalTimeout: 400 * time.Millisecond}))
	b.Acquire(context.Background(), b.Size()-(4<<20)) // leaves room for a first grant, not the growth
	_, err := c.Get(context.Background(), Request{URL: srv.URL})
	if !errors.Is(err, ErrTotalTimeout) || errors.Is(err, ErrBodyStalled) {
		t.Fatalf("err %v, want the total timeout, not a stall", err)
	}
}

// A body read to its decoded limit never holds more than bufferPeak of it: the buffer grows to
// the limit from at most half of it. (Doubling from 32 KiB, a 50 MiB limit was reached from a
// 32 MiB buffer: 82 MiB at once, and a second request for memory while holding the first.)
func TestBufferNeverPassesItsPeak(t *testing.T) {
	const limit = 50 << 20
	compressed := encode(t, codingGzip, make([]byte, limit+(1<<20)))
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(compressed)
	})
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	resp, err := c.Get(context.Background(), Request{URL: srv.URL, MaxDecodedBytes: limit})
	if err != nil || len(resp.Body) != limit || cap(resp.Body) > limit+1 {
		t.Fatalf("err %v, body %d bytes (cap %d)", err, len(resp.Body), cap(resp.Body))
	}
	resp.Release()
	if want := int64(flateCost + bufferPeak(limit)); b.Peak() > want {
		t.Errorf("budget peak %d, want at most %d", b.Peak(), want)
	}
}

// An identity body without Content-Length is bounded by the raw limit too: its buffer grows to
// that limit, not to the larger decoded one.
func TestIdentityBufferBoundedByTheRawLimit(t *testing.T) {
	body := strings.Repeat("z", 12<<20)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < len(body); i += 1 << 20 { // chunked: no Content-Length
			io.WriteString(w, body[i:i+1<<20])
			w.(http.Flusher).Flush()
		}
	})
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	resp := get(t, c, Request{URL: srv.URL})
	if len(resp.Body) != len(body) || cap(resp.Body) > DefaultMaxRawBytes+1 {
		t.Fatalf("body %d bytes, cap %d", len(resp.Body), cap(resp.Body))
	}
	resp.Release()
	if want := int64(bufferPeak(DefaultMaxRawBytes)); b.Peak() > want {
		t.Errorf("budget peak %d, want at most %d", b.Peak(), want)
	}
}

// The collection that frees dropped Responses runs only when a request has to wait for
// memory: with the budget free, a hundred requests force none.
func TestNoForcedCollectionWithoutWaiting(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "small page") })
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Budget: b}))
	held := get(t, c, Request{URL: srv.URL}) // something is held throughout
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := forced()
	for range 100 {
		get(t, c, Request{URL: srv.URL}).Release()
	}
	if n := forced() - before; n != 0 {
		t.Errorf("%d forced collections for requests that never waited", n)
	}
	held.Release()
}
