package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"syscall"
	"testing"
)

// Network failures against real loopback peers, sorted into the kinds of
// docs/robots-rules.md rule 21 ("network errors (DNS, refused, reset,
// timeout)"). DNS and timeouts have their own tests (dial_test.go,
// timeout_test.go).
func TestClassifyNetworkFailures(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		c := newClient(t, loopback(Options{}))
		_, err = c.Get(context.Background(), Request{URL: "http://" + addr + "/robots.txt"})
		if k := Classify(err); k != KindRefused {
			t.Errorf("Classify(%v) = %v, want refused", err, k)
		}
	})

	for _, abort := range []bool{false, true} {
		name := map[bool]string{false: "closed before response", true: "reset (RST)"}[abort]
		t.Run(name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				if abort {
					conn.(*net.TCPConn).SetLinger(0) // close sends RST
				}
				conn.Close()
			})
			c := newClient(t, loopback(Options{}))
			_, err := c.Get(context.Background(), Request{URL: srv.URL + "/robots.txt"})
			if k := Classify(err); k != KindReset {
				t.Errorf("Classify(%v) = %v, want reset", err, k)
			}
		})
	}

	t.Run("tls unknown authority", func(t *testing.T) {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		t.Cleanup(srv.Close)
		srv.Config.ErrorLog = discardLog()     // the server logs the client's alert
		c := newClient(t, loopback(Options{})) // system roots: the test CA is not in them
		_, err := c.Get(context.Background(), Request{URL: srv.URL})
		if !errors.Is(err, ErrTLS) || Classify(err) != KindTLS {
			t.Errorf("err = %v (kind %v), want ErrTLS", err, Classify(err))
		}
	})

	t.Run("tls wrong host", func(t *testing.T) {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		t.Cleanup(srv.Close)
		srv.Config.ErrorLog = discardLog()
		pool := x509.NewCertPool()
		pool.AddCert(srv.Certificate())
		port := srv.Listener.Addr().(*net.TCPAddr).Port
		c := newClient(t, Options{
			RootCAs: pool,
			Resolve: map[string]string{fmt.Sprintf("site-a.test:%d", port): "127.0.0.1"},
		})
		_, err := c.Get(context.Background(), Request{URL: fmt.Sprintf("https://site-a.test:%d/", port)})
		if !errors.Is(err, ErrTLS) || Classify(err) != KindTLS {
			t.Errorf("err = %v (kind %v), want ErrTLS", err, Classify(err))
		}
	})
}

// Classify on errors built by hand: the order of precedence, and errors
// that did not come through Get.
func TestClassifyErrors(t *testing.T) {
	op := func(err error) error {
		return &url.Error{Op: "Get", URL: "http://site-a.test/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: err}}
	}
	for _, tc := range []struct {
		name string
		err  error
		want ErrorKind
	}{
		{"nil", nil, KindNone},
		{"dns not found", op(&net.DNSError{Err: "no such host", Name: "site-a.test", IsNotFound: true}), KindDNS},
		{"dns timeout", op(&net.DNSError{Err: "i/o timeout", Name: "site-a.test", IsTimeout: true}), KindDNS},
		{"refused", op(os.NewSyscallError("connect", syscall.ECONNREFUSED)), KindRefused},
		{"reset", op(os.NewSyscallError("read", syscall.ECONNRESET)), KindReset},
		{"broken pipe", op(os.NewSyscallError("write", syscall.EPIPE)), KindReset},
		{"eof", fmt.Errorf("fetch: %w", &url.Error{Op: "Get", URL: "u", Err: io.EOF}), KindReset},
		{"host unreachable", op(os.NewSyscallError("connect", syscall.EHOSTUNREACH)), KindUnreachable},
		{"net unreachable", op(os.NewSyscallError("connect", syscall.ENETUNREACH)), KindUnreachable},
		{"i/o timeout", op(os.ErrDeadlineExceeded), KindTimeout},
		{"timeout deep in a wrap", fmt.Errorf("a: %w", &url.Error{Err: fmt.Errorf("b: %w", timeoutError("t"))}), KindTimeout},
		{"total timeout", fmt.Errorf("fetch: %w", ErrTotalTimeout), KindTimeout},
		{"deadline beats dns", op(&net.DNSError{Err: "x", UnwrapErr: context.DeadlineExceeded}), KindTimeout},
		{"canceled", fmt.Errorf("fetch: %w", context.Canceled), KindCanceled},
		{"canceled beats reset", errors.Join(context.Canceled, syscall.ECONNRESET), KindCanceled},
		{"private", op(fmt.Errorf("%w 127.0.0.1:80", ErrPrivateAddress)), KindPrivateAddress},
		{"decode", fmt.Errorf("decode gzip body: %w: %w", ErrDecode, io.ErrUnexpectedEOF), KindDecode},
		{"tls sentinel", fmt.Errorf("%w: x", ErrTLS), KindTLS},
		{"tls alert", op(tls.AlertError(40)), KindTLS},
		{"tls record", op(tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}), KindTLS},
		{"x509 unknown authority", op(&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), KindTLS},
		{"timeout beats tls", fmt.Errorf("%w: %w", ErrTLS, timeoutError("handshake")), KindTimeout},
		{"reset beats tls", fmt.Errorf("%w: %w", ErrTLS, syscall.ECONNRESET), KindReset},
		{"invalid url", fmt.Errorf("fetch: %w", ErrInvalidURL), KindOther},
		{"other", errors.New("malformed HTTP response"), KindOther},
	} {
		if got := Classify(tc.err); got != tc.want {
			t.Errorf("%s: Classify(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestErrorKindString(t *testing.T) {
	want := map[ErrorKind]string{
		KindNone: "none", KindDNS: "dns", KindRefused: "refused", KindReset: "reset",
		KindUnreachable: "unreachable", KindTimeout: "timeout", KindTLS: "tls",
		KindPrivateAddress: "private-address", KindDecode: "decode", KindCanceled: "canceled",
		KindOther: "other", ErrorKind(99): "ErrorKind(?)", ErrorKind(-1): "ErrorKind(?)",
	}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("ErrorKind(%d).String() = %q, want %q", int(k), k.String(), s)
		}
	}
}
