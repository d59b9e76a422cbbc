package fetch

import (
	"io"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/warc"
	"github.com/fractle/mandelbot/urlnorm"

	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"sync/atomic"
)

// Client fetches URLs. It is safe for concurrent use; create one per crawl
// with New and reuse it, so connections are kept alive. The zero value is
// not usable.
type Client struct {
	cfg       config
	budget    *budget.Budget
	gc        atomic.Bool // see charge.collecting
	transport *http.Transport
	http      *http.Client
}

// New returns a Client configured by opts (zero Options: every default).
// It fails only when an option is invalid.
func New(opts Options) (*Client, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	t := &http.Transport{
		// Never a proxy from the environment: libraries read no
		// environment, and a proxy would dial for us, past the address
		// check.
		Proxy:       nil,
		DialContext: newDialer(cfg).DialContext,
		TLSClientConfig: &tls.Config{
			RootCAs:    cfg.rootCAs,
			MinVersion: tls.VersionTLS12,
		},
		// A Transport with its own DialContext or TLSClientConfig does
		// not speak HTTP/2 unless asked to.
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    cfg.tlsHandshakeTimeout,
		ResponseHeaderTimeout:  cfg.responseHeaderTimeout,
		IdleConnTimeout:        cfg.idleConnTimeout,
		MaxIdleConns:           cfg.maxIdleConns,
		MaxIdleConnsPerHost:    cfg.maxIdleConnsPerHost,
		MaxResponseHeaderBytes: cfg.maxHeaderBytes,
		// We send Accept-Encoding and decode ourselves, under our limits.
		DisableCompression: true,
	}
	if cfg.capture {
		// The recording sits above TLS and below HTTP: the Transport must speak HTTP/1.1,
		// where one connection carries one exchange at a time.
		d := &warc.Dialer{Dial: newDialer(cfg).DialContext, TLSConfig: t.TLSClientConfig,
			HandshakeTimeout: cfg.tlsHandshakeTimeout}
		t.DialContext, t.DialTLSContext, t.ForceAttemptHTTP2 = d.DialContext, d.DialTLSContext, false
	}
	return &Client{
		cfg:       cfg,
		budget:    cfg.budget,
		transport: t,
		http: &http.Client{
			Transport: t,
			// Each redirect hop is a new URL for the frontier and its
			// robots check: hand the 3xx back instead of following it.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// Close closes the client's idle connections. The Client stays usable;
// a later Get dials afresh.
func (c *Client) Close() {
	c.transport.CloseIdleConnections()
}

// Get fetches req.URL with a GET request and reads the body under the
// limits in force.
//
// It returns a nil Response only when no response header arrived: the URL
// was invalid, or the connection, TLS handshake or request failed, or a
// timeout fired first. When the header arrived but reading or decoding the
// body failed, Get returns the Response (status, header, the body read so
// far) together with the error, so that a 503 is seen even if its body is
// corrupt. A body that stalls ([ErrBodyStalled]) or breaks off mid-way is
// such an error: a body is complete only when err is nil. Errors wrap the
// package's sentinels; see Classify.
//
// The body is charged to the client's memory budget while it is read and
// until the caller calls [Response.Release]: the caller owns the Response
// and must release it once it no longer needs Body. Get waits for budget
// when the budget is spent, within the total timeout.
func (c *Client) Get(ctx context.Context, req Request) (*Response, error) {
	x, err := c.start(ctx, req)
	if err != nil {
		return nil, err
	}
	defer x.end()
	hresp := x.hresp

	cod, codingList := parseContentEncoding(hresp.Header.Values("Content-Encoding"))
	keepRaw := c.cfg.onExchange != nil
	ch := c.newCharge()
	br := bodyReader{ctx: x.ctx, charge: ch, capture: x.captureWatch()}
	b, bodyErr := br.readBody(x.body, cod, x.lim, hresp.ContentLength, keepRaw)
	if bodyErr != nil {
		bodyErr = fmt.Errorf("fetch: %s: %w", x.target, c.withCause(x.ctx, bodyErr))
	}
	resp := x.response(c.cfg.now())
	resp.Body = b.decoded
	resp.Truncated, resp.TruncatedBy, resp.RawBytes = b.truncatedBy != LimitNone, b.truncatedBy, b.rawBytes
	if cod == codingUnknown {
		resp.UnknownEncoding = codingList
	}
	resp.Capture = x.captured(b.truncatedBy != LimitNone || bodyErr != nil && !errors.Is(bodyErr, ErrDecode))
	c.exchange(x, b.raw, b.truncatedBy, bodyErr)
	if keepRaw {
		// The raw copy lived until OnExchange returned (Exchange: the
		// callee copies what it keeps).
		ch.releaseSome(x.lim.raw + 1)
	}
	resp.hold(ch)
	return resp, bodyErr
}

func (c *Client) newCharge() *charge { return &charge{b: c.budget, collecting: &c.gc} }

// exchange reports one exchange to Options.OnExchange, if set.
func (c *Client) exchange(x *inflight, raw []byte, cut Limit, err error) {
	if c.cfg.onExchange == nil {
		return
	}
	c.cfg.onExchange(Exchange{
		Started:        x.started,
		RemoteAddr:     x.trace.remoteAddr(),
		Method:         x.hreq.Method,
		URL:            x.target,
		Host:           cmp.Or(x.hreq.Host, x.hreq.URL.Host),
		RequestHeader:  x.hreq.Header,
		Proto:          x.hresp.Proto,
		StatusCode:     x.hresp.StatusCode,
		Status:         x.hresp.Status,
		ResponseHeader: x.hresp.Header,
		RawBody:        raw,
		TruncatedBy:    cut,
		Err:            err,
	})
}

// inflight is one request whose response header has arrived and whose body
// is still to be read.
type inflight struct {
	ctx     context.Context // ends at the total timeout, a stall or the caller's end
	cancel  context.CancelCauseFunc
	stop    context.CancelFunc
	trace   *connTrace
	hreq    *http.Request
	hresp   *http.Response
	body    io.Reader // hresp.Body, watched by idle
	idle    *idleTimer
	target  string
	lim     limits
	started time.Time
	rec     *warc.Recorder // Options.Capture; nil otherwise
}

// captureWatch is x's wire copy for charging it, nil without Options.Capture: the response's part
// is at most what the Recorder keeps of a direction, and the request was written whole already.
func (x *inflight) captureWatch() *captureWatch {
	if x.rec == nil {
		return nil
	}
	return &captureWatch{size: x.rec.Len, max: x.rec.Max() + x.rec.Len()}
}

// captured ends the recording of x and returns it, nil without Options.Capture or when the
// exchange went over no recording connection. cut says the body was not read to its end.
func (x *inflight) captured(cut bool) *Capture {
	if x.rec == nil || x.rec.Done() != nil {
		return nil
	}
	return &Capture{Request: x.rec.Request(), Response: x.rec.Response(), IP: x.rec.RemoteIP(),
		Truncated: cut || x.rec.Truncated() != warc.TruncatedNone}
}

// start sends the request and waits for the response header.
func (c *Client) start(ctx context.Context, req Request) (*inflight, error) {
	target, err := parseTarget(req.URL)
	if err != nil {
		return nil, err
	}
	lim, err := c.cfg.limitsFor(req)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithTimeoutCause(ctx, c.cfg.totalTimeout, ErrTotalTimeout)
	ctx, cancel := context.WithCancelCause(ctx)
	x := &inflight{ctx: ctx, cancel: cancel, stop: stop, trace: &connTrace{}, target: target, lim: lim}
	ctx = httptrace.WithClientTrace(ctx, x.trace.hooks())
	if c.cfg.capture {
		x.rec = warc.NewRecorder(lim.raw + c.cfg.maxHeaderBytes)
		ctx = warc.WithRecorder(ctx, x.rec)
	}

	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		x.end()
		return nil, fmt.Errorf("fetch: %w: %w", ErrInvalidURL, err)
	}
	raw, _, _ := strings.Cut(req.URL, "#")
	if u, err := urlnorm.Parse(raw); err == nil && u.String() == raw {
		// Send the target exactly as it was matched against robots.txt (rule 12): net/url
		// would re-encode "|", "^", "[" and "]" its own way.
		hreq.URL = u.RequestURL()
		hreq.Host = hreq.URL.Host
	}
	hreq.Header = req.Header.Clone()
	if hreq.Header == nil {
		hreq.Header = make(http.Header)
	}
	hreq.Header.Set("User-Agent", c.cfg.userAgent)
	hreq.Header.Set("Accept-Encoding", AcceptEncoding)
	x.hreq = hreq

	x.started = c.cfg.now()
	hresp, err := c.http.Do(hreq)
	if err != nil {
		err = c.requestError(x.ctx, x.trace, target, err)
		x.end()
		return nil, err
	}
	x.hresp = hresp
	x.idle = newIdleTimer(c.cfg.bodyIdleTimeout, cancel)
	x.body = idleReader{r: hresp.Body, timer: x.idle}
	return x, nil
}

// end stops the idle timer, closes the body and releases the contexts.
func (x *inflight) end() {
	x.idle.pause()
	if x.hresp != nil {
		x.hresp.Body.Close()
	}
	x.cancel(nil)
	x.stop()
}

// response is the Response for x without its body fields.
func (x *inflight) response(now time.Time) *Response {
	h := x.hresp
	return &Response{
		URL:         x.target,
		Status:      h.StatusCode,
		Proto:       h.Proto,
		Header:      h.Header,
		ContentType: mediaType(h.Header.Get("Content-Type")),
		Location:    resolveLocation(x.target, h.Header.Get("Location")),
		RemoteAddr:  x.trace.remoteAddr(),
		Started:     x.started,
		Duration:    now.Sub(x.started),
	}
}

// parseTarget checks that raw is an absolute http(s) URL with a host and
// returns it without its fragment.
func parseTarget(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("fetch: %w: %w", ErrInvalidURL, err)
	}
	if s := lowerASCII(u.Scheme); s != "http" && s != "https" {
		return "", fmt.Errorf("fetch: %w: %q is not an http or https URL", ErrInvalidURL, raw)
	}
	if u.Host == "" {
		return "", fmt.Errorf("fetch: %w: %q has no host", ErrInvalidURL, raw)
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// requestError wraps an error from http.Client.Do, adding ErrTotalTimeout
// or ErrTLS when the trace shows that is what happened.
func (c *Client) requestError(ctx context.Context, trace *connTrace, target string, err error) error {
	if ue, ok := err.(*url.Error); ok && ue.Err != nil {
		// net/http says `Get "URL": ...` with the URL it rebuilt from the opaque request target
		// ("http:/robots.txt", issue 10), quoted, which log formats escape again: say "GET
		// TARGET: ..." with the URL requested. The cause stays wrapped for Classify.
		err = fmt.Errorf("%s %s: %w", strings.ToUpper(ue.Op), target, ue.Err)
	}
	err = c.withCause(ctx, err)
	if tlsErr := trace.handshakeErr(); tlsErr != nil && errors.Is(err, tlsErr) {
		return fmt.Errorf("fetch: %w: %w", ErrTLS, err)
	}
	return fmt.Errorf("fetch: %w", err)
}

// withCause makes sure err wraps ErrTotalTimeout or ErrBodyStalled, and
// names the timeout, when that is what ended ctx (net/http reports the
// context's cause on most paths, not all).
func (c *Client) withCause(ctx context.Context, err error) error {
	if context.Cause(ctx) == ErrBodyStalled {
		if errors.Is(err, ErrBodyStalled) {
			return err
		}
		return fmt.Errorf("%w (nothing for %v): %w", ErrBodyStalled, c.cfg.bodyIdleTimeout, err)
	}
	if context.Cause(ctx) != ErrTotalTimeout {
		return err
	}
	if errors.Is(err, ErrTotalTimeout) {
		return fmt.Errorf("%w (%v)", err, c.cfg.totalTimeout)
	}
	return fmt.Errorf("%w (%v): %w", ErrTotalTimeout, c.cfg.totalTimeout, err)
}

// connTrace records, through httptrace, the remote address of the
// connection used and the error of a failed TLS handshake. Its hooks may
// run on transport goroutines, even after Get returned, hence the mutex.
type connTrace struct {
	mu     sync.Mutex
	remote string
	tlsErr error
}

func (t *connTrace) hooks() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.remote = info.Conn.RemoteAddr().String()
		},
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			if err == nil {
				return
			}
			t.mu.Lock()
			defer t.mu.Unlock()
			t.tlsErr = err
		},
	}
}

func (t *connTrace) remoteAddr() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.remote
}

func (t *connTrace) handshakeErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tlsErr
}
