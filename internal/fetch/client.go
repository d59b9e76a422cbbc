package fetch

import (
	"github.com/fractle/mandelbot/urlnorm"
	"strings"

	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
)

// Client fetches URLs. It is safe for concurrent use; create one per crawl
// with New and reuse it, so connections are kept alive. The zero value is
// not usable.
type Client struct {
	cfg       config
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
	return &Client{
		cfg:       cfg,
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
// corrupt. Errors wrap the package's sentinels; see Classify.
func (c *Client) Get(ctx context.Context, req Request) (*Response, error) {
	target, err := parseTarget(req.URL)
	if err != nil {
		return nil, err
	}
	lim, err := c.cfg.limitsFor(req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.cfg.totalTimeout, ErrTotalTimeout)
	defer cancel()
	var trace connTrace
	ctx = httptrace.WithClientTrace(ctx, trace.hooks())

	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
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

	started := c.cfg.now()
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return nil, c.requestError(ctx, &trace, err)
	}
	defer hresp.Body.Close()

	cod, codingList := parseContentEncoding(hresp.Header.Values("Content-Encoding"))
	keepRaw := c.cfg.onExchange != nil
	b, bodyErr := readBody(hresp.Body, cod, lim, hresp.ContentLength, keepRaw)
	if bodyErr != nil {
		bodyErr = fmt.Errorf("fetch: %s: %w", target, c.withTimeoutCause(ctx, bodyErr))
	}
	resp := &Response{
		URL:         target,
		Status:      hresp.StatusCode,
		Proto:       hresp.Proto,
		Header:      hresp.Header,
		Body:        b.decoded,
		Truncated:   b.truncatedBy != LimitNone,
		TruncatedBy: b.truncatedBy,
		RawBytes:    b.rawBytes,
		ContentType: mediaType(hresp.Header.Get("Content-Type")),
		Location:    resolveLocation(target, hresp.Header.Get("Location")),
		RemoteAddr:  trace.remoteAddr(),
		Started:     started,
		Duration:    c.cfg.now().Sub(started),
	}
	if cod == codingUnknown {
		resp.UnknownEncoding = codingList
	}
	if c.cfg.onExchange != nil {
		c.cfg.onExchange(Exchange{
			Started:        started,
			RemoteAddr:     resp.RemoteAddr,
			Method:         hreq.Method,
			URL:            target,
			Host:           cmp.Or(hreq.Host, hreq.URL.Host),
			RequestHeader:  hreq.Header,
			Proto:          hresp.Proto,
			StatusCode:     hresp.StatusCode,
			Status:         hresp.Status,
			ResponseHeader: hresp.Header,
			RawBody:        b.raw,
			TruncatedBy:    b.truncatedBy,
			Err:            bodyErr,
		})
	}
	return resp, bodyErr
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
func (c *Client) requestError(ctx context.Context, trace *connTrace, err error) error {
	err = c.withTimeoutCause(ctx, err)
	if tlsErr := trace.handshakeErr(); tlsErr != nil && errors.Is(err, tlsErr) {
		return fmt.Errorf("fetch: %w: %w", ErrTLS, err)
	}
	return fmt.Errorf("fetch: %w", err)
}

// withTimeoutCause makes sure err wraps ErrTotalTimeout, and names the
// timeout, when the total timeout is what ended ctx (net/http reports the
// context's cause on most paths, not all).
func (c *Client) withTimeoutCause(ctx context.Context, err error) error {
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
