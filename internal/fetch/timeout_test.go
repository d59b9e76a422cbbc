package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Timeouts used against blocked handlers: small, so tests stay fast, and
// far below the generous limits that must not fire.
const (
	shortTimeout = 100 * time.Millisecond
	longTimeout  = 5 * time.Second
	// bodyTimeout is the total timeout of a test that needs the header and a first part of the
	// body to arrive before it fires: a TLS handshake (and HTTP/2's settings) on a machine at a
	// load average of 20 took longer than shortTimeout, and the test then saw no response.
	bodyTimeout = time.Second
)

// A server that never sends its header hits the response header timeout
// (a network error for robots.txt, docs/robots-rules.md rule 21).
func TestResponseHeaderTimeout(t *testing.T) {
	block := newBlocker(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { block.wait(r) })
	c := newClient(t, loopback(Options{ResponseHeaderTimeout: shortTimeout, TotalTimeout: longTimeout}))

	start := time.Now()
	resp, err := c.Get(context.Background(), Request{URL: srv.URL})
	if resp != nil || err == nil {
		t.Fatalf("Get = %v, %v; want a timeout error", resp, err)
	}
	if k := Classify(err); k != KindTimeout {
		t.Errorf("Classify(%v) = %v, want timeout", err, k)
	}
	if errors.Is(err, ErrTotalTimeout) {
		t.Errorf("header timeout reported as the total timeout: %v", err)
	}
	if d := time.Since(start); d > longTimeout/2 {
		t.Errorf("took %v; the header timeout is %v", d, shortTimeout)
	}
}

// The total timeout covers the body: a server that sends its header and
// part of the body and then stalls ends in ErrTotalTimeout, with the
// response and the bytes that came. HTTP/2 reports it by another path.
func TestTotalTimeoutWhileReadingBody(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "HTTP/1.1", true: "HTTP/2"}[h2], func(t *testing.T) {
			// The handler must not end when the client goes away, or the
			// server could finish the body (the closing chunk) in the
			// moment between the client's TLS close_notify and its close,
			// and the body would rightly be complete. So it waits for the
			// test alone, released before the server closes.
			release := make(chan struct{})
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("first part;"))
				w.(http.Flusher).Flush()
				<-release
			}))
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(release) }) // runs first
			pool := x509.NewCertPool()
			pool.AddCert(srv.Certificate())
			c := newClient(t, loopback(Options{TotalTimeout: bodyTimeout, RootCAs: pool}))

			resp, err := c.Get(context.Background(), Request{URL: srv.URL})
			if !errors.Is(err, ErrTotalTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want ErrTotalTimeout (a context.DeadlineExceeded)", err)
			}
			if k := Classify(err); k != KindTimeout {
				t.Errorf("Classify = %v, want timeout", k)
			}
			if resp == nil || resp.Status != http.StatusOK || string(resp.Body) != "first part;" {
				t.Fatalf("response %+v, want the 200 and the part that came", resp)
			}
			if want := map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"}[h2]; resp.Proto != want {
				t.Errorf("Proto = %q, want %q", resp.Proto, want)
			}
		})
	}
}

// The total timeout also covers the wait for the header.
func TestTotalTimeoutBeforeHeader(t *testing.T) {
	block := newBlocker(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { block.wait(r) })
	c := newClient(t, loopback(Options{TotalTimeout: shortTimeout}))

	_, err := c.Get(context.Background(), Request{URL: srv.URL})
	if !errors.Is(err, ErrTotalTimeout) || Classify(err) != KindTimeout {
		t.Fatalf("err = %v (kind %v), want ErrTotalTimeout", err, Classify(err))
	}
}

// A peer that accepts the connection but never answers the TLS handshake
// hits the handshake timeout.
func TestTLSHandshakeTimeout(t *testing.T) {
	ln := silentListener(t)
	c := newClient(t, loopback(Options{TLSHandshakeTimeout: shortTimeout, TotalTimeout: longTimeout}))

	_, err := c.Get(context.Background(), Request{URL: "https://" + ln.Addr().String() + "/"})
	if k := Classify(err); k != KindTimeout {
		t.Fatalf("Classify(%v) = %v, want timeout", err, k)
	}
	if errors.Is(err, ErrTotalTimeout) {
		t.Errorf("handshake timeout reported as the total timeout: %v", err)
	}
}

// The caller's cancellation is Canceled, not a timeout: the origin did
// nothing wrong.
func TestCallerCancel(t *testing.T) {
	block := newBlocker(t)
	arrived := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		block.wait(r)
	})
	c := newClient(t, loopback(Options{}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	_, err := c.Get(ctx, Request{URL: srv.URL})
	if k := Classify(err); k != KindCanceled {
		t.Fatalf("Classify(%v) = %v, want canceled", err, k)
	}
}

// silentListener accepts TCP connections on 127.0.0.1 and holds them open
// without a byte, until the test ends.
func silentListener(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	done := make(chan struct{})
	t.Cleanup(func() {
		ln.Close()
		<-done // the accept loop has stopped sending
		close(conns)
		for c := range conns {
			c.Close()
		}
	})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case conns <- c:
			default:
				c.Close()
			}
		}
	}()
	return ln
}
