package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Issue 13: "The bytes recorded are the bytes on the wire: the status line and headers as
// received, and the body before content decoding. Archived fetches use HTTP/1.1." With
// Options.Capture, Get hands back what went over the connection, while Body is decoded as usual.
func TestCaptureRecordsWireBytesOfGzipResponse(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, strings.Repeat("hello wire ", 100))
	zw.Close()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Odd-Case", "kept")
		w.Write(gz.Bytes())
	})
	c := newClient(t, loopback(Options{Capture: true}))
	for i := range 2 { // the second Get reuses the kept-alive connection
		resp, err := c.Get(context.Background(), Request{URL: srv.URL + "/p", Header: http.Header{"If-None-Match": {`"x"`}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(resp.Body); got != strings.Repeat("hello wire ", 100) {
			t.Fatalf("decoded body %q", got)
		}
		cp := resp.Capture
		if cp == nil {
			t.Fatalf("get %d: no Capture", i)
		}
		if resp.Proto != "HTTP/1.1" || !bytes.HasPrefix(cp.Response, []byte("HTTP/1.1 200 OK\r\n")) {
			t.Errorf("get %d: proto %s, response starts %q", i, resp.Proto, cp.Response[:min(len(cp.Response), 20)])
		}
		head, body, ok := bytes.Cut(cp.Response, []byte("\r\n\r\n"))
		if !ok || !bytes.Contains(head, []byte("\r\nX-Odd-Case: kept")) {
			t.Errorf("get %d: header section %q", i, head)
		}
		if !bytes.Equal(body, gz.Bytes()) {
			t.Errorf("get %d: recorded body is %d bytes, want the %d compressed bytes sent", i, len(body), gz.Len())
		}
		if !bytes.HasPrefix(cp.Request, []byte("GET /p HTTP/1.1\r\n")) || !bytes.Contains(cp.Request, []byte("\r\nIf-None-Match: \"x\"\r\n")) {
			t.Errorf("get %d: request %q", i, cp.Request)
		}
		if cp.IP != "127.0.0.1" || cp.Truncated {
			t.Errorf("get %d: IP %q, truncated %v", i, cp.IP, cp.Truncated)
		}
		resp.Release()
	}
}

// Without Options.Capture, nothing is recorded.
func TestNoCaptureByDefault(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	resp, err := newClient(t, loopback(Options{})).Get(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Release()
	if resp.Capture != nil {
		t.Fatalf("Capture %+v without Options.Capture", resp.Capture)
	}
}

// A body cut at the raw limit is recorded as far as it was read, and says it is truncated.
func TestCaptureTruncatedAtRawLimit(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("a", 100000)) })
	c := newClient(t, loopback(Options{Capture: true, MaxRawBytes: 1000}))
	resp, err := c.Get(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Release()
	if resp.Capture == nil || !resp.Capture.Truncated {
		t.Fatalf("Capture %+v, want truncated", resp.Capture)
	}
}

// A body whose gzip coding is corrupt still arrived whole: its capture is not truncated, while
// a body that breaks off mid-way is.
func TestCaptureCorruptCodingIsWholeBrokenBodyIsNot(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/corrupt" {
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, "this is not gzip at all")
			return
		}
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, "only part of it")
		if hj, ok := w.(http.Hijacker); ok {
			w.(http.Flusher).Flush()
			c, _, _ := hj.Hijack()
			c.Close()
		}
	})
	c := newClient(t, loopback(Options{Capture: true}))
	resp, err := c.Get(context.Background(), Request{URL: srv.URL + "/corrupt"})
	if !errors.Is(err, ErrDecode) || resp == nil || resp.Capture == nil || resp.Capture.Truncated ||
		!bytes.HasSuffix(resp.Capture.Response, []byte("this is not gzip at all")) {
		t.Errorf("corrupt coding: err %v, capture %+v", err, resp.Capture)
	}
	resp.Release()
	resp, err = c.Get(context.Background(), Request{URL: srv.URL + "/broken"})
	if err == nil || resp == nil || resp.Capture == nil || !resp.Capture.Truncated {
		t.Errorf("broken body: err %v, resp %+v", err, resp)
	}
	resp.Release()
}
