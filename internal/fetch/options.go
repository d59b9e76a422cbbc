package fetch

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/fractle/mandelbot/internal/budget"
)

// Defaults used where a field of [Options] is zero.
const (
	// DefaultConnectTimeout bounds DNS resolution plus the TCP connect.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultTLSHandshakeTimeout bounds the TLS handshake.
	DefaultTLSHandshakeTimeout = 10 * time.Second
	// DefaultResponseHeaderTimeout bounds the wait for the response header
	// once the request has been written.
	DefaultResponseHeaderTimeout = 30 * time.Second
	// DefaultTotalTimeout bounds a whole Get: connect, request, header and
	// reading the body.
	DefaultTotalTimeout = 60 * time.Second
	// DefaultIdleConnTimeout is how long an idle keep-alive connection is
	// kept for reuse.
	DefaultIdleConnTimeout = 90 * time.Second

	// DefaultMaxIdleConns caps idle connections over all hosts: a crawler
	// goes round many origins, and net/http drops the least recently used
	// idle connection first, so a pool smaller than the origins in rotation
	// keeps none long enough to be reused (issue 8: at 1,000 origins and a
	// pool of 512, 21,715 connections for 22,000 requests). Each idle
	// connection costs about 35 KiB of memory (its buffers and two
	// goroutines): at most about 70 MiB.
	DefaultMaxIdleConns = 2048
	// DefaultMaxIdleConnsPerHost caps idle connections per host. net/http's
	// own default of 2 makes a busy origin reconnect all the time.
	DefaultMaxIdleConnsPerHost = 8

	// DefaultMaxHeaderBytes caps the response header (net/http allows 10 MiB).
	DefaultMaxHeaderBytes = 1 << 20
	// DefaultMaxRawBytes caps the body as received, before content decoding.
	DefaultMaxRawBytes = 16 << 20
	// DefaultMaxDecodedBytes caps the body after content decoding; it is the
	// bound on what a decompression bomb can make us hold.
	DefaultMaxDecodedBytes = 32 << 20

	// DefaultMaxBufferedBytes is the memory budget of a client that is given
	// none: what all its responses in flight or not yet released may hold
	// (bodies, raw copies, decoder windows) together. With the process's
	// other memory and the garbage collector's headroom it keeps a crawl
	// under 256 MiB (issue 9). It was 128 MiB until the store's indexer wrote
	// text during the crawl, with writers of its own (issue 8): the hostile
	// web's crawl then peaked at 239-258 MiB (257 in CI); with 112 MiB, at
	// 207-243, also under the load of other tests.
	DefaultMaxBufferedBytes = 112 << 20
	// DefaultBodyIdleTimeout is how long a body may send nothing before the
	// request fails with ErrBodyStalled.
	DefaultBodyIdleTimeout = 20 * time.Second
)

// Options configures a [Client]. The zero value is valid and means every
// default; a negative duration or size is an error from [New]. New copies
// what it needs, so changing Options (or its Resolve map) afterwards has no
// effect on the Client.
type Options struct {
	// UserAgent is sent as the User-Agent header of every request, replacing
	// any the caller puts in Request.Header. Empty means DefaultUserAgent.
	UserAgent string

	// ConnectTimeout bounds DNS resolution and the TCP connect
	// (default DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// TLSHandshakeTimeout bounds the TLS handshake
	// (default DefaultTLSHandshakeTimeout).
	TLSHandshakeTimeout time.Duration
	// ResponseHeaderTimeout bounds the wait for the response header after
	// the request is written (default DefaultResponseHeaderTimeout).
	ResponseHeaderTimeout time.Duration
	// TotalTimeout bounds a whole Get, body included
	// (default DefaultTotalTimeout). When it fires, the error wraps
	// ErrTotalTimeout.
	TotalTimeout time.Duration
	// IdleConnTimeout is how long an idle connection is kept
	// (default DefaultIdleConnTimeout).
	IdleConnTimeout time.Duration

	// MaxIdleConns caps idle connections over all hosts
	// (default DefaultMaxIdleConns).
	MaxIdleConns int
	// MaxIdleConnsPerHost caps idle connections per host
	// (default DefaultMaxIdleConnsPerHost).
	MaxIdleConnsPerHost int

	// MaxHeaderBytes caps the response header; a larger header is an error
	// (default DefaultMaxHeaderBytes).
	MaxHeaderBytes int64
	// MaxRawBytes caps the body as received, before content decoding
	// (default DefaultMaxRawBytes). Request.MaxRawBytes overrides it.
	MaxRawBytes int64
	// MaxDecodedBytes caps the body after content decoding
	// (default DefaultMaxDecodedBytes). Request.MaxDecodedBytes overrides it.
	MaxDecodedBytes int64

	// Budget is the memory budget every body this client buffers is charged
	// to, shared with whatever else the process charges to it. Nil means a
	// budget of its own of MaxBufferedBytes.
	//
	// A request charges up to 1 MiB (firstGrant) plus its decoder's window
	// first; a body that grows past that takes everything its limits allow
	// at once (the limit and a half, for the buffer copy, plus the decoder),
	// so requests never deadlock each other as long as the budget holds one
	// such largest request plus 1 MiB per other request in flight. New
	// rejects limits whose largest request exceeds the budget.
	Budget *budget.Budget
	// MaxBufferedBytes is the size of the budget New creates when Budget is
	// nil (default DefaultMaxBufferedBytes).
	MaxBufferedBytes int64
	// BodyIdleTimeout is how long the body may send nothing, after the
	// header, before Get fails with ErrBodyStalled
	// (default DefaultBodyIdleTimeout). TotalTimeout still bounds a body
	// that drips.
	BodyIdleTimeout time.Duration

	// Resolve pins host names to addresses like curl's --resolve: the key is
	// "host:port" (as in the URL; an IPv6 host in brackets), the value an IP
	// address, and the port stays the same. A pinned address is dialled even
	// when it is private or loopback: pinning it is an explicit operator
	// choice. Use ParseResolve for curl's HOST:PORT:ADDR syntax.
	Resolve map[string]string
	// AllowPrivate lets the dialer connect to loopback, private, link-local,
	// unspecified and multicast addresses. By default they are refused with
	// an error wrapping ErrPrivateAddress.
	AllowPrivate bool
	// Resolver looks up host names that Resolve does not pin. Nil means
	// net.DefaultResolver.
	Resolver *net.Resolver
	// RootCAs are the certificate authorities trusted for https. Nil means
	// the system pool. Certificates are always verified.
	RootCAs *x509.CertPool

	// Now is the clock for Response.Started and Response.Duration. Nil
	// means time.Now.
	Now func() time.Time
	// OnExchange, if set, is called once per Get that received a response
	// header, after the body was read and before Get returns, with what was
	// sent and received (for a WARC writer). It runs on the goroutine that
	// called Get, so it must be safe for concurrent use when Get is called
	// concurrently.
	OnExchange func(Exchange)
	// Capture makes every Get and Stream record the exchange's bytes as they went over the
	// connection (Response.Capture), for a WARC writer: the request as written, the status line
	// and header fields as received, the body before content decoding. The client then speaks
	// HTTP/1.1 only (warc.Dialer), TLS is done below the recording, and a failed handshake is
	// not classified as ErrTLS (the Transport's TLS trace hooks do not run).
	Capture bool
}

// config is Options with the defaults filled in and the values checked.
type config struct {
	userAgent             string
	connectTimeout        time.Duration
	tlsHandshakeTimeout   time.Duration
	responseHeaderTimeout time.Duration
	totalTimeout          time.Duration
	idleConnTimeout       time.Duration
	maxIdleConns          int
	maxIdleConnsPerHost   int
	maxHeaderBytes        int64
	limits                limits
	budget                *budget.Budget
	bodyIdleTimeout       time.Duration
	resolve               map[string]string
	allowPrivate          bool
	resolver              *net.Resolver
	rootCAs               *x509.CertPool
	now                   func() time.Time
	onExchange            func(Exchange)
	capture               bool
}

// limits are the two body limits in force for one Get.
type limits struct {
	raw     int64
	decoded int64
}

func newConfig(o Options) (config, error) {
	var errs []error
	orDefault := func(name string, v, def time.Duration) time.Duration {
		if v < 0 {
			errs = append(errs, fmt.Errorf("%s is negative (%v)", name, v))
		}
		if v <= 0 {
			return def
		}
		return v
	}
	sizeOrDefault := func(name string, v, def int64) int64 {
		if v < 0 {
			errs = append(errs, fmt.Errorf("%s is negative (%d)", name, v))
		}
		if v <= 0 {
			return def
		}
		return v
	}
	c := config{
		userAgent:             o.UserAgent,
		connectTimeout:        orDefault("ConnectTimeout", o.ConnectTimeout, DefaultConnectTimeout),
		tlsHandshakeTimeout:   orDefault("TLSHandshakeTimeout", o.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout),
		responseHeaderTimeout: orDefault("ResponseHeaderTimeout", o.ResponseHeaderTimeout, DefaultResponseHeaderTimeout),
		totalTimeout:          orDefault("TotalTimeout", o.TotalTimeout, DefaultTotalTimeout),
		idleConnTimeout:       orDefault("IdleConnTimeout", o.IdleConnTimeout, DefaultIdleConnTimeout),
		maxIdleConns:          int(sizeOrDefault("MaxIdleConns", int64(o.MaxIdleConns), DefaultMaxIdleConns)),
		maxIdleConnsPerHost:   int(sizeOrDefault("MaxIdleConnsPerHost", int64(o.MaxIdleConnsPerHost), DefaultMaxIdleConnsPerHost)),
		maxHeaderBytes:        sizeOrDefault("MaxHeaderBytes", o.MaxHeaderBytes, DefaultMaxHeaderBytes),
		limits: limits{
			raw:     sizeOrDefault("MaxRawBytes", o.MaxRawBytes, DefaultMaxRawBytes),
			decoded: sizeOrDefault("MaxDecodedBytes", o.MaxDecodedBytes, DefaultMaxDecodedBytes),
		},
		budget:          o.Budget,
		bodyIdleTimeout: orDefault("BodyIdleTimeout", o.BodyIdleTimeout, DefaultBodyIdleTimeout),
		allowPrivate:    o.AllowPrivate,
		resolver:        o.Resolver,
		rootCAs:         o.RootCAs,
		now:             o.Now,
		onExchange:      o.OnExchange,
		capture:         o.Capture,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if !httpguts.ValidHeaderFieldValue(c.userAgent) {
		errs = append(errs, fmt.Errorf("UserAgent %q is not a valid header value", c.userAgent))
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.budget == nil {
		c.budget = budget.New(sizeOrDefault("MaxBufferedBytes", o.MaxBufferedBytes, DefaultMaxBufferedBytes))
	}
	if need := largestCharge(c.limits, o.OnExchange != nil, c.captureMax(c.limits)); need > c.budget.Size() {
		errs = append(errs, fmt.Errorf("the memory budget (%d bytes) is smaller than one request at the body limits (%d bytes)", c.budget.Size(), need))
	}
	resolve, err := normalizeResolve(o.Resolve)
	if err != nil {
		errs = append(errs, err)
	}
	c.resolve = resolve
	if err := errors.Join(errs...); err != nil {
		return config{}, fmt.Errorf("fetch: options: %w", err)
	}
	return c, nil
}

// largestCharge is the most one Get can charge under lim: the decoded
// buffer at its peak, the largest decoder window, with keepRaw the raw
// copy, and capture bytes of wire copy (Options.Capture; 0 without).
func largestCharge(lim limits, keepRaw bool, capture int64) int64 {
	n := bufferPeak(lim.decoded) + brotliMaxWindow + brotliOverhead + capture
	if keepRaw {
		n += lim.raw + 1
	}
	return n
}

// captureRequestBytes is what the wire copy of a request is counted at when sizing limits: its
// request line and header fields (the crawler's are well under 1 KiB).
const captureRequestBytes = 64 << 10

// captureMax is the most a capturing client's wire copy of one exchange holds under lim (0
// without Options.Capture): the response up to the raw limit and the header limit (what a
// warc.Recorder keeps of it), and the request.
func (c *config) captureMax(lim limits) int64 {
	if !c.capture {
		return 0
	}
	return captureCost(lim.raw, c.maxHeaderBytes)
}

func captureCost(raw, header int64) int64 { return raw + header + captureRequestBytes }

// limitsFor returns the limits for one request: the client's, overridden
// by the request's non-zero fields.
func (c *config) limitsFor(r Request) (limits, error) {
	l := c.limits
	if r.MaxRawBytes < 0 || r.MaxDecodedBytes < 0 {
		return limits{}, fmt.Errorf("fetch: request limits are negative (raw %d, decoded %d)", r.MaxRawBytes, r.MaxDecodedBytes)
	}
	if r.MaxRawBytes > 0 {
		l.raw = r.MaxRawBytes
	}
	if r.MaxDecodedBytes > 0 {
		l.decoded = r.MaxDecodedBytes
	}
	return l, nil
}

// MaxDecodedFor is the decoded body limit for a client whose memory budget is size bytes
// (issue 29: the body buffers' share of --memory): DefaultMaxDecodedBytes when its largest
// request fits in size, else the largest limit whose largest request does (so that New accepts
// it, and one body never waits for more than the whole budget); 0 when not even a 64 KiB body
// fits. It assumes no OnExchange and no Options.Capture (see LimitsFor).
func MaxDecodedFor(size int64) int64 {
	return maxDecodedBeside(size, 0)
}

// maxDecodedBeside is MaxDecodedFor with capture bytes of wire copy beside each request.
func maxDecodedBeside(size, capture int64) int64 {
	if largestCharge(limits{decoded: DefaultMaxDecodedBytes}, false, capture) <= size {
		return DefaultMaxDecodedBytes
	}
	fixed := largestCharge(limits{}, false, capture) - bufferPeak(0)
	d := (size-fixed)*2/3 - 2
	for d > 0 && largestCharge(limits{decoded: d}, false, capture) > size {
		d--
	}
	if d < 64<<10 {
		return 0
	}
	return d
}

// MinCaptureRawBytes is the least raw body limit LimitsFor gives a capturing client.
const MinCaptureRawBytes = 1 << 20

// LimitsFor is the raw and decoded body limits for a client whose memory budget is size bytes
// (issue 29), with the default header limit: without capture, DefaultMaxRawBytes and
// MaxDecodedFor(size). With capture (Options.Capture: a WARC writer), every request may also
// hold its wire copy, up to the raw limit and the header limit (issue 29: WARC capture copies
// are charged to the bodies' share), so the raw limit is halved, down to MinCaptureRawBytes,
// until a decoded limit at least as large fits beside it. decoded is 0 when none fits.
func LimitsFor(size int64, capture bool) (raw, decoded int64) {
	if !capture {
		return DefaultMaxRawBytes, MaxDecodedFor(size)
	}
	for raw = DefaultMaxRawBytes; ; raw /= 2 {
		decoded = maxDecodedBeside(size, captureCost(raw, DefaultMaxHeaderBytes))
		if decoded >= raw || raw/2 < MinCaptureRawBytes {
			return raw, decoded
		}
	}
}
