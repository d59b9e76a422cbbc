package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// captureTransport is an http.Transport wired as the Dialer's
// documentation tells internal/fetch to wire its own.
func captureTransport(t *testing.T, tlsConfig *tls.Config) *http.Transport {
	t.Helper()
	d := &Dialer{Dial: (&net.Dialer{Timeout: 5 * time.Second}).DialContext, TLSConfig: tlsConfig, HandshakeTimeout: 5 * time.Second}
	tr := &http.Transport{
		DialContext:        d.DialContext,
		DialTLSContext:     d.DialTLSContext,
		ForceAttemptHTTP2:  false,
		DisableCompression: true,
	}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// captured is one exchange as a crawler would see and record it.
type captured struct {
	rec  *Recorder
	resp *http.Response
	body []byte // as the client read it
}

func get(t *testing.T, rt http.RoundTripper, url string, max int64) captured {
	t.Helper()
	rec := NewRecorder(max)
	ctx, cancel := context.WithTimeout(WithRecorder(context.Background(), rec), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Done(); err != nil {
		t.Fatal(err)
	}
	return captured{rec: rec, resp: resp, body: body}
}

func (c captured) exchange(url string) Exchange {
	return Exchange{TargetURI: url, IP: c.rec.RemoteIP(), Request: c.rec.Request(),
		Response: c.rec.Response(), Truncated: c.rec.Truncated()}
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Issue 13: "the bytes of a gzip-encoded response are the compressed bytes
// the server sent" — the body before content decoding, whether the
// client decodes it itself or lets the Transport do it.
func TestCaptureGzipResponseKeepsCompressedBytes(t *testing.T) {
	page := strings.Repeat("<p>Sourdough, rye and spelt.</p>\n", 200)
	sent := gzipped(t, page)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(sent)))
		_, _ = w.Write(sent)
	}))
	defer srv.Close()

	for _, transportDecodes := range []bool{false, true} {
		t.Run(fmt.Sprintf("transport decodes %v", transportDecodes), func(t *testing.T) {
			tr := captureTransport(t, nil)
			tr.DisableCompression = !transportDecodes
			url := srv.URL + "/bread"
			c := get(t, tr, url, 0)
			if transportDecodes && string(c.body) != page || !transportDecodes && !bytes.Equal(c.body, sent) {
				t.Fatalf("client read %d bytes: the test's premise is wrong", len(c.body))
			}

			w, dir := newTestWriter(t, Options{})
			refs, err := w.WriteExchange(c.exchange(url))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			resp := recordAt(t, dir, refs.Response)
			if !bytes.HasPrefix(resp.Block, []byte("HTTP/1.1 200 OK\r\n")) || !bytes.Contains(resp.Block, []byte("\r\nContent-Encoding: gzip\r\n")) {
				t.Errorf("response head %q", httpHead(resp.Block))
			}
			if !bytes.Equal(payloadOf(t, resp.Block), sent) {
				t.Errorf("archived payload is %d bytes, not the %d compressed bytes sent", len(payloadOf(t, resp.Block)), len(sent))
			}
			req := recordAt(t, dir, refs.Request)
			wantLine := "GET /bread HTTP/1.1\r\nHost: " + strings.TrimPrefix(srv.URL, "http://") + "\r\n"
			if !bytes.HasPrefix(req.Block, []byte(wantLine)) {
				t.Errorf("request record %q, want it to begin %q", req.Block, wantLine)
			}
			if transportDecodes != bytes.Contains(req.Block, []byte("Accept-Encoding: gzip")) {
				t.Errorf("request record %q: Accept-Encoding as sent?", req.Block)
			}
			if ip := resp.get("WARC-IP-Address"); ip != "127.0.0.1" {
				t.Errorf("WARC-IP-Address %q", ip)
			}

			files := warcFiles(t, dir)
			recs := readAll(t, files)
			checkRecords(t, recs)
			js := readWithWarcio(t, files...)
			checkWarcioRecords(t, js, recs)
			if js != nil && (len(js) != 3 || js[1].Type != "response") {
				t.Fatalf("warcio.js reads %d records, want warcinfo, response, request", len(js))
			}
			for _, j := range js {
				if j.Type == "response" && (j.ContentEncoding != "gzip" || !bytes.Equal(j.Payload, sent)) {
					t.Errorf("warcio.js reads Content-Encoding %q and a %d-byte payload, want gzip and the %d bytes sent", j.ContentEncoding, len(j.Payload), len(sent))
				}
			}
		})
	}
}

// rawServer answers each request on a connection with the next of
// responses, byte for byte, and counts connections.
type rawServer struct {
	ln    net.Listener
	conns atomic.Int32
	wg    sync.WaitGroup
}

func newRawServer(t *testing.T, responses ...string) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	s.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			s.wg.Go(func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for _, r := range responses {
					if _, err := http.ReadRequest(br); err != nil {
						return
					}
					if _, err := io.WriteString(c, r); err != nil {
						return
					}
				}
			})
		}
	})
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

// The status line and header fields as received (issue 13): reason
// phrase, field-name case and whitespace are kept, and chunked framing is
// kept in the block. Two exchanges on one kept-alive connection each get
// their own bytes.
func TestCaptureKeepsWireBytesOnKeptAliveConnection(t *testing.T) {
	first := "HTTP/1.1 200 Fine Thanks\r\nx-Odd-CASE:   spaced  \r\nContent-Length: 5\r\n\r\nhello"
	second := "HTTP/1.1 404 Gone Fishing\r\ncontent-type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"
	srv := newRawServer(t, first, second)
	tr := captureTransport(t, nil)
	base := "http://" + srv.ln.Addr().String()

	a := get(t, tr, base+"/a", 0)
	b := get(t, tr, base+"/b", 0)
	if srv.conns.Load() != 1 {
		t.Fatalf("%d connections: the second exchange did not reuse the first's", srv.conns.Load())
	}
	if got := string(a.rec.Response()); got != first {
		t.Errorf("first response captured as %q, sent %q", got, first)
	}
	if got := string(b.rec.Response()); got != second {
		t.Errorf("second response captured as %q, sent %q", got, second)
	}
	if string(b.body) != "abcde" {
		t.Errorf("client read %q", b.body)
	}
	if !bytes.HasPrefix(a.rec.Request(), []byte("GET /a HTTP/1.1\r\n")) || !bytes.HasPrefix(b.rec.Request(), []byte("GET /b HTTP/1.1\r\n")) {
		t.Errorf("requests captured as %q and %q", a.rec.Request(), b.rec.Request())
	}

	w, dir := newTestWriter(t, Options{})
	for _, c := range []struct {
		captured
		path string
	}{{a, "/a"}, {b, "/b"}} {
		if _, err := w.WriteExchange(c.exchange(base + c.path)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	recs := readAll(t, files)
	checkRecords(t, recs)
	checkWarcioRecords(t, readWithWarcio(t, files...), recs)
}

// A response past the Recorder's limit is cut there and marked
// WARC-Truncated: length (WARC 1.1 section 5.13); its digests are those of
// what was kept.
func TestCaptureLimitMarksTruncation(t *testing.T) {
	body := strings.Repeat("x", 5000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	const limit = 1024
	c := get(t, captureTransport(t, nil), srv.URL, limit)
	if len(c.body) != len(body) {
		t.Fatalf("client read %d bytes", len(c.body))
	}
	if n := len(c.rec.Response()); n != limit || c.rec.Truncated() != TruncatedLength {
		t.Fatalf("captured %d bytes, truncated %q; want %d, length", n, c.rec.Truncated(), limit)
	}
	w, dir := newTestWriter(t, Options{})
	refs, err := w.WriteExchange(c.exchange(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := recordAt(t, dir, refs.Response)
	if r.get("WARC-Truncated") != "length" || len(r.Block) != limit {
		t.Errorf("WARC-Truncated %q, block %d bytes", r.get("WARC-Truncated"), len(r.Block))
	}
	checkRecords(t, readAll(t, warcFiles(t, dir)))

	small := get(t, captureTransport(t, nil), srv.URL, 0)
	if small.rec.Truncated() != TruncatedNone {
		t.Errorf("a response under the default limit is marked %q", small.rec.Truncated())
	}
}

// Archived fetches use HTTP/1.1 (issue 13), also over TLS against a
// server that offers HTTP/2, and what is recorded is the HTTP text above
// TLS.
func TestCaptureTLSRecordsPlaintextHTTP11(t *testing.T) {
	var proto atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(r.Proto)
		_, _ = io.WriteString(w, "secret bakery")
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())

	c := get(t, captureTransport(t, &tls.Config{RootCAs: pool}), srv.URL+"/tls", 0)
	if c.resp.Proto != "HTTP/1.1" || proto.Load() != "HTTP/1.1" {
		t.Fatalf("client %s, server %v: want HTTP/1.1", c.resp.Proto, proto.Load())
	}
	if !bytes.HasPrefix(c.rec.Response(), []byte("HTTP/1.1 200 OK\r\n")) || !bytes.HasSuffix(c.rec.Response(), []byte("\r\n\r\nsecret bakery")) {
		t.Errorf("response captured as %q", c.rec.Response())
	}
	if !bytes.HasPrefix(c.rec.Request(), []byte("GET /tls HTTP/1.1\r\n")) {
		t.Errorf("request captured as %q", c.rec.Request())
	}

	// A certificate the client does not trust fails the dial, and the error says so.
	rec := NewRecorder(0)
	req, _ := http.NewRequestWithContext(WithRecorder(context.Background(), rec), http.MethodGet, srv.URL, nil)
	_, err := (&http.Client{Transport: captureTransport(t, &tls.Config{RootCAs: x509.NewCertPool()})}).Do(req)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "tls handshake") {
		t.Errorf("untrusted certificate: %v", err)
	}
	if err := rec.Done(); !errors.Is(err, ErrNotCaptured) {
		t.Errorf("Done after a failed dial: %v, want ErrNotCaptured", err)
	}
}

// A Transport not wired to the Dialer records nothing, and Done says so
// instead of handing back an empty exchange.
func TestRecorderNotCapturedWithoutDialer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	rec := NewRecorder(0)
	req, _ := http.NewRequestWithContext(WithRecorder(context.Background(), rec), http.MethodGet, srv.URL, nil)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := rec.Done(); !errors.Is(err, ErrNotCaptured) {
		t.Errorf("Done: %v, want ErrNotCaptured", err)
	}
}

// Concurrent exchanges sharing a few kept-alive connections each record
// their own request and response, never a neighbour's.
func TestCaptureConcurrentExchanges(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := "page " + r.URL.Path + " " + strings.Repeat(".", 3000)
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		_, _ = io.WriteString(w, page)
	}))
	defer srv.Close()
	tr := captureTransport(t, nil)
	tr.MaxConnsPerHost = 2
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 15 {
				path := fmt.Sprintf("/%d/%d", g, i)
				c := get(t, tr, srv.URL+path, 0)
				if !bytes.HasPrefix(c.rec.Request(), []byte("GET "+path+" HTTP/1.1\r\n")) {
					t.Errorf("%s: request captured as %q", path, c.rec.Request())
				}
				if resp := c.rec.Response(); !bytes.HasPrefix(resp, []byte("HTTP/1.1 200 OK\r\n")) || !bytes.HasSuffix(resp, c.body) ||
					!bytes.Contains(resp, []byte("\r\n\r\npage "+path+" ")) {
					t.Errorf("%s: response captured as %q...", path, resp[:min(len(resp), 200)])
				}
			}
		})
	}
	wg.Wait()
}

// An interim 1xx response (103 Early Hints) is not part of the response
// record: the record is the final response, as received.
func TestCaptureDropsInterimResponses(t *testing.T) {
	final := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	srv := newRawServer(t, "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"+final)
	c := get(t, captureTransport(t, nil), "http://"+srv.ln.Addr().String()+"/", 0)
	if got := string(c.rec.Response()); got != final {
		t.Errorf("response captured as %q, want the final response %q", got, final)
	}
}
