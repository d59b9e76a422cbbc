package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// ErrorKind sorts fetch errors into the cases the crawler's policy tells
// apart: docs/robots-rules.md rule 21 treats "network errors (DNS, refused,
// reset, timeout)" as an unreachable origin. The zero value is KindNone.
//
// There is no kind for a body over a limit: that is not an error
// (Response.Truncated).
type ErrorKind int

const (
	// KindNone is the kind of a nil error.
	KindNone ErrorKind = iota
	// KindDNS: the host name did not resolve (no such host, DNS failure
	// or DNS timeout).
	KindDNS
	// KindRefused: the connection was refused (nothing listens there).
	KindRefused
	// KindReset: the connection was reset or closed before the exchange
	// was done.
	KindReset
	// KindUnreachable: no route to the host or its network.
	KindUnreachable
	// KindTimeout: a connect, TLS handshake, response header or total
	// timeout, or the caller's context deadline.
	KindTimeout
	// KindTLS: the TLS handshake failed (certificate, protocol alert).
	KindTLS
	// KindPrivateAddress: the dialer refused a non-public address.
	KindPrivateAddress
	// KindDecode: the body's content coding was corrupt.
	KindDecode
	// KindCanceled: the caller canceled the context.
	KindCanceled
	// KindOther: anything else (a bad URL, a malformed response, ...).
	KindOther
)

var kindNames = [...]string{
	KindNone:           "none",
	KindDNS:            "dns",
	KindRefused:        "refused",
	KindReset:          "reset",
	KindUnreachable:    "unreachable",
	KindTimeout:        "timeout",
	KindTLS:            "tls",
	KindPrivateAddress: "private-address",
	KindDecode:         "decode",
	KindCanceled:       "canceled",
	KindOther:          "other",
}

// String returns the kind's lower-case name, such as "dns" or
// "private-address", fit for logs and exported reasons.
func (k ErrorKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "ErrorKind(?)"
}

// Classify returns the kind of err, which may come from this package or
// from net/http directly. When several apply, the most specific cause
// wins, in this order: private address, decode, canceled, a context
// deadline (the total timeout or the caller's), DNS, other timeouts,
// refused, reset, unreachable, TLS. A handshake that timed out is
// therefore a timeout, and a reset during the handshake a reset.
func Classify(err error) ErrorKind {
	switch {
	case err == nil:
		return KindNone
	case errors.Is(err, ErrPrivateAddress):
		return KindPrivateAddress
	case errors.Is(err, ErrDecode):
		return KindDecode
	case errors.Is(err, context.Canceled):
		return KindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout // ErrTotalTimeout or the caller's deadline, even mid-lookup
	}
	if _, ok := errors.AsType[*net.DNSError](err); ok {
		return KindDNS
	}
	if isTimeout(err) {
		return KindTimeout
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return KindRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return KindReset
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return KindUnreachable
	case isTLS(err):
		return KindTLS
	}
	return KindOther
}

// isTimeout reports whether any error in err's tree is a timeout. It walks
// the whole tree because wrappers such as *url.Error only ask their direct
// child.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	return anyInTree(err, func(e error) bool {
		t, ok := e.(interface{ Timeout() bool })
		return ok && t.Timeout()
	})
}

// isTLS reports whether err is a TLS handshake failure: marked by Get with
// ErrTLS, or one of the crypto packages' error types.
func isTLS(err error) bool {
	if errors.Is(err, ErrTLS) {
		return true
	}
	if _, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return true
	}
	if _, ok := errors.AsType[tls.RecordHeaderError](err); ok {
		return true
	}
	if _, ok := errors.AsType[tls.AlertError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.UnknownAuthorityError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.HostnameError](err); ok {
		return true
	}
	_, ok := errors.AsType[x509.CertificateInvalidError](err)
	return ok
}

// anyInTree reports whether pred holds for err or any error it wraps,
// following both Unwrap() error and Unwrap() []error.
func anyInTree(err error, pred func(error) bool) bool {
	for err != nil {
		if pred(err) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if anyInTree(e, pred) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
