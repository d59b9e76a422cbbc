package warc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http/httptrace"
	"sync"
	"time"
)

// DefaultMaxCaptureBytes caps what a Recorder keeps of each direction of
// an exchange: 16 MiB of body (fetch.DefaultMaxRawBytes) plus 1 MiB of
// header (fetch.DefaultMaxHeaderBytes).
const DefaultMaxCaptureBytes int64 = 17 << 20

// ErrNotCaptured is returned by Recorder.Done when no connection of a
// capturing Dialer carried the exchange: the Transport was not wired to
// the Dialer, or the exchange never got a connection.
var ErrNotCaptured = errors.New("warc: exchange not captured (transport not using warc.Dialer?)")

// Dialer opens connections whose bytes are copied to the Recorder of the
// exchange using them (see WithRecorder). It works for HTTP/1.1 only,
// where one connection carries one exchange at a time; the Transport must
// not speak HTTP/2. The zero value is not usable: Dial is required. A
// Dialer is safe for concurrent use.
//
// internal/fetch wires it into its http.Transport like this:
//
//	d := &warc.Dialer{Dial: guarded.DialContext, TLSConfig: tlsConfig,
//		HandshakeTimeout: cfg.tlsHandshakeTimeout}
//	t.DialContext = d.DialContext
//	t.DialTLSContext = d.DialTLSContext // TLS below the capture: plaintext is recorded
//	t.ForceAttemptHTTP2 = false         // and DialTLSContext's conns are not *tls.Conn: no h2
//	t.DisableCompression = true         // already so: bodies stay as sent
//
// and for each Get:
//
//	rec := warc.NewRecorder(maxCapture)
//	ctx = warc.WithRecorder(ctx, rec)
//	resp, err := httpClient.Do(req.WithContext(ctx)) // and read the body
//	resp.Body.Close()
//	if err := rec.Done(); err != nil { ... }          // ErrNotCaptured
//	ex := warc.Exchange{TargetURI: target, Date: started, IP: rec.RemoteIP(),
//		Request: rec.Request(), Response: rec.Response(), Truncated: rec.Truncated()}
//
// Done must come after the body was read to its end or closed: bytes are
// recorded as the Transport reads them from the connection. With
// DialTLSContext set, the Transport ignores TLSClientConfig,
// TLSHandshakeTimeout and the httptrace TLS hooks; the handshake error
// comes back from the dial, wrapped by DialTLSContext.
type Dialer struct {
	// Dial opens the underlying connection (for fetch, its dialer that
	// refuses non-public addresses). Required.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLSConfig is cloned for each https connection; ServerName defaults
	// to the host being dialled and NextProtos is set to http/1.1 only.
	// nil means the zero tls.Config.
	TLSConfig *tls.Config
	// HandshakeTimeout bounds the TLS handshake; zero means only ctx does.
	HandshakeTimeout time.Duration
}

// DialContext has the signature of http.Transport.DialContext.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.Dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &captureConn{Conn: c}, nil
}

// DialTLSContext has the signature of http.Transport.DialTLSContext: it
// dials, completes a TLS handshake offering only http/1.1, and records the
// plaintext above TLS.
func (d *Dialer) DialTLSContext(ctx context.Context, network, addr string) (net.Conn, error) {
	raw, err := d.Dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	var cfg *tls.Config
	if d.TLSConfig != nil {
		cfg = d.TLSConfig.Clone()
	} else {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	cfg.NextProtos = []string{"http/1.1"}
	hctx := ctx
	if d.HandshakeTimeout > 0 {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, d.HandshakeTimeout)
		defer cancel()
	}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(hctx); err != nil {
		_ = raw.Close()
		return nil, fmt.Errorf("warc: tls handshake with %s: %w", addr, err)
	}
	return &captureConn{Conn: tc}, nil
}

// captureConn copies what is read and written to the Recorder attached.
type captureConn struct {
	net.Conn
	mu  sync.Mutex
	rec *Recorder
}

func (c *captureConn) current() *Recorder {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rec
}

func (c *captureConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		if r := c.current(); r != nil {
			r.add(&r.resp, p[:n])
		}
	}
	return n, err
}

func (c *captureConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		if r := c.current(); r != nil {
			r.add(&r.req, p[:n])
		}
	}
	return n, err
}

// attach makes r the connection's recorder, replacing any other.
func (c *captureConn) attach(r *Recorder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rec = r
}

// detach removes r, if it is still the connection's recorder.
func (c *captureConn) detach(r *Recorder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == r {
		c.rec = nil
	}
}

// Recorder collects the wire bytes of one HTTP/1.1 exchange, up to a
// limit per direction. Create it with NewRecorder and put it in the
// request's context with WithRecorder. Its methods are safe for concurrent
// use; the slices returned after Done are the caller's.
type Recorder struct {
	max int64

	mu       sync.Mutex
	conn     *captureConn
	remote   net.Addr
	attached bool
	done     bool
	req      capture
	resp     capture
}

// capture is one direction of an exchange.
type capture struct {
	b   []byte
	cut bool // bytes beyond the limit were dropped
}

// NewRecorder returns a Recorder that keeps at most maxBytes of each
// direction; zero means DefaultMaxCaptureBytes.
func NewRecorder(maxBytes int64) *Recorder {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxCaptureBytes
	}
	return &Recorder{max: maxBytes}
}

// WithRecorder returns ctx with an httptrace hook that attaches r to the
// connection the Transport picks for the request. Hooks already in ctx
// still run.
func WithRecorder(ctx context.Context, r *Recorder) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			c, ok := info.Conn.(*captureConn)
			if !ok {
				return
			}
			r.mu.Lock()
			if r.done {
				r.mu.Unlock()
				return
			}
			if r.conn != nil && r.conn != c {
				r.conn.detach(r)
			}
			r.conn, r.remote, r.attached = c, c.RemoteAddr(), true
			r.mu.Unlock()
			c.attach(r)
		},
	})
}

func (r *Recorder) add(c *capture, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done || c.cut {
		return
	}
	if room := r.max - int64(len(c.b)); int64(len(p)) > room {
		p = p[:room]
		c.cut = true
	}
	c.b = append(c.b, p...)
}

// Done stops recording: bytes read or written on the connection later
// belong to no exchange, or to the next one. It returns ErrNotCaptured if
// the exchange never went over a capturing connection.
func (r *Recorder) Done() error {
	r.mu.Lock()
	c := r.conn
	r.done, r.conn = true, nil
	attached := r.attached
	r.mu.Unlock()
	if c != nil {
		c.detach(r)
	}
	if !attached {
		return ErrNotCaptured
	}
	return nil
}

// Len is how many bytes the Recorder holds now, of both directions: what its copy of the
// exchange costs (issue 29: a capturing client charges it to its memory budget).
func (r *Recorder) Len() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int64(len(r.req.b) + len(r.resp.b))
}

// Max is the most the Recorder keeps of each direction.
func (r *Recorder) Max() int64 { return r.max }

// Request returns the request bytes as written to the connection.
func (r *Recorder) Request() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.req.b
}

// Response returns the response bytes as read from the connection: status
// line, header fields and body with their codings, up to the limit.
// Interim 1xx responses (103 Early Hints, 100 Continue) that came before
// the final response are left out: a response record holds one response.
func (r *Recorder) Response() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return finalResponse(r.resp.b)
}

// finalResponse skips the interim (1xx other than 101) responses at the
// start of b. A 1xx whose header section is incomplete is kept.
func finalResponse(b []byte) []byte {
	for len(b) >= len("HTTP/1.1 1xx") && string(b[:7]) == "HTTP/1." && b[9] == '1' && string(b[9:12]) != "101" {
		rest, ok := httpPayload(b)
		if !ok {
			break
		}
		b = rest
	}
	return b
}

// Truncated returns TruncatedLength when the response went past the
// limit and was cut there, and TruncatedNone otherwise. A body the caller
// stopped reading early is cut too; the caller knows that, not the
// Recorder, and should say TruncatedLength itself.
func (r *Recorder) Truncated() Truncation {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.resp.cut {
		return TruncatedLength
	}
	return TruncatedNone
}

// RequestTruncated reports whether the request went past the limit.
func (r *Recorder) RequestTruncated() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.req.cut
}

// RemoteIP returns the IP address of the server the exchange went to, ""
// when unknown.
func (r *Recorder) RemoteIP() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.remote == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(r.remote.String())
	if err != nil {
		return ""
	}
	return host
}
