package fetch

import (
	"context"
	"errors"
)

// Sentinel errors. Errors returned by this package wrap them, so test with
// errors.Is; [Classify] maps them to an [ErrorKind]. Their text has no
// package prefix because the errors that wrap them start with "fetch: ".
var (
	// ErrPrivateAddress means the dialer refused to connect to a loopback,
	// private, link-local, unspecified, multicast or otherwise non-public
	// address (see [Options.AllowPrivate]).
	ErrPrivateAddress = errors.New("non-public address refused")

	// ErrDecode means the body's content coding (gzip, br, zstd, deflate) was
	// corrupt. The Response is still returned, holding what was decoded
	// before the fault.
	ErrDecode = errors.New("corrupt content coding")

	// ErrTLS means the TLS handshake failed (unknown authority, wrong host
	// name, protocol alert, ...). A handshake that timed out is a timeout,
	// and a connection reset during the handshake is a reset: [Classify]
	// reports those kinds first.
	ErrTLS = errors.New("TLS handshake failed")

	// ErrTotalTimeout means [Options.TotalTimeout] elapsed before the whole
	// exchange, body included, was done. It is a timeout: it reports
	// Timeout() == true and wraps context.DeadlineExceeded.
	ErrTotalTimeout error = timeoutError("total timeout exceeded")

	// ErrInvalidURL means the requested URL could not be parsed or is not an
	// absolute http or https URL with a host.
	ErrInvalidURL = errors.New("invalid URL")
)

// timeoutError is an error that says it is a timeout in the ways other code
// checks: the net.Error Timeout method and context.DeadlineExceeded.
type timeoutError string

func (e timeoutError) Error() string   { return string(e) }
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return true }
func (e timeoutError) Unwrap() error   { return context.DeadlineExceeded }

// ErrBodyStalled means the body made no progress for [Options.BodyIdleTimeout]
// after the header arrived: the server stalled mid-body. It is a timeout
// ([Classify] reports KindTimeout): a network failure to retry, never a
// complete body.
var ErrBodyStalled error = timeoutError("body stalled")
