package fetch

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/budget"
)

// issue 29 ("the consumers: body buffers, ... and WARC capture copies"; "each has a named
// share"): a capturing client's wire copy of a response is charged to its memory budget with the
// body, for as long as the Response is held: a body of known length, one of unknown length
// (chunked, past the first grant) and a streamed one. Released, nothing stays charged.
func TestCaptureCopyIsChargedIssue29(t *testing.T) {
	const n = 3 << 20 // past the first grant (firstGrant)
	body := strings.Repeat("w", n)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/known" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		io.WriteString(w, body[:n/2])
		w.(http.Flusher).Flush() // no Content-Length on /chunked: sent chunked
		io.WriteString(w, body[n/2:])
	})
	held := map[bool]map[string]int64{}
	for _, capture := range []bool{false, true} {
		held[capture] = map[string]int64{}
		b := budget.New(DefaultMaxBufferedBytes)
		c := newClient(t, loopback(Options{Capture: capture, Budget: b}))
		for _, path := range []string{"/known", "/chunked"} {
			resp, err := c.Get(context.Background(), Request{URL: srv.URL + path})
			if err != nil {
				t.Fatal(err)
			}
			held[capture][path] = b.Used()
			if capture && (resp.Capture == nil || int64(len(resp.Capture.Response)) <= n) {
				t.Fatalf("%s: no whole wire copy", path)
			}
			resp.Release()
			if used := b.Used(); used != 0 {
				t.Errorf("capture %v, %s: %d bytes still charged after Release", capture, path, used)
			}
		}
	}
	for _, path := range []string{"/known", "/chunked"} {
		if without, with := held[false][path], held[true][path]; with-without < n {
			t.Errorf("%s: %d bytes charged with capture, %d without; want the wire copy (%d bytes) on top", path, with, without, n)
		}
	}
	// A stream charges its buffers while it runs; with capture the Response then holds the wire
	// copy until Release.
	b := budget.New(DefaultMaxBufferedBytes)
	c := newClient(t, loopback(Options{Capture: true, Budget: b}))
	resp, err := c.Stream(context.Background(), Request{URL: srv.URL + "/chunked"}, func(_ *Response, r io.Reader) error {
		_, err := io.Copy(io.Discard, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if held := b.Used(); resp.Capture == nil || held < int64(len(resp.Capture.Response)) {
		t.Errorf("stream: %d bytes charged after it returned, want at least its wire copy", held)
	}
	resp.Release()
	if used := b.Used(); used != 0 {
		t.Errorf("stream: %d bytes still charged after Release", used)
	}
}

// issue 29: with capture, the limits fitted to a budget leave room for the wire copy: the
// largest request, copy included, fits, and New accepts them.
func TestLimitsForCaptureFitTheBudget(t *testing.T) {
	for _, size := range []int64{24 << 20, 32 << 20, 64 << 20, 112 << 20} {
		raw, decoded := LimitsFor(size, true)
		if decoded <= 0 || raw < MinCaptureRawBytes {
			t.Fatalf("LimitsFor(%d MiB, capture) = %d, %d", size>>20, raw, decoded)
		}
		lim := limits{raw: raw, decoded: decoded}
		if need := largestCharge(lim, false, captureCost(raw, DefaultMaxHeaderBytes)); need > size {
			t.Errorf("LimitsFor(%d MiB, capture) = %d, %d: the largest request takes %d", size>>20, raw, decoded, need)
		}
		c, err := New(Options{MaxBufferedBytes: size, MaxRawBytes: raw, MaxDecodedBytes: decoded, Capture: true})
		if err != nil {
			t.Errorf("New with %d MiB and the fitted limits: %v", size>>20, err)
			continue
		}
		c.Close()
	}
	if raw, decoded := LimitsFor(64<<20, false); raw != DefaultMaxRawBytes || decoded != MaxDecodedFor(64<<20) {
		t.Errorf("LimitsFor without capture = %d, %d; want the default raw limit and MaxDecodedFor", raw, decoded)
	}
}
