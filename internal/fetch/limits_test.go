package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"testing"
)

// The raw limit cuts the body as received; at the limit exactly nothing is
// cut. Hitting it is a result, not an error: robots.txt is parsed up to its
// limit (docs/robots-rules.md rule 10).
func TestRawLimit(t *testing.T) {
	const limit = 10 << 10
	plain := text(100 << 10)
	base := servePayloads(t, map[string]payload{
		"/at":    {body: plain[:limit]},
		"/over1": {body: plain[:limit+1]},
		"/big":   {body: plain},
	})
	c := newClient(t, loopback(Options{MaxRawBytes: limit}))
	for _, tc := range []struct {
		path      string
		wantLen   int
		truncated bool
	}{
		{"/at", limit, false},
		{"/over1", limit, true},
		{"/big", limit, true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp := get(t, c, Request{URL: base + tc.path})
			if !bytes.Equal(resp.Body, plain[:tc.wantLen]) {
				t.Errorf("Body: %d bytes, want the first %d", len(resp.Body), tc.wantLen)
			}
			if resp.Truncated != tc.truncated || resp.RawBytes != int64(tc.wantLen) {
				t.Errorf("Truncated %v, RawBytes %d; want %v, %d", resp.Truncated, resp.RawBytes, tc.truncated, tc.wantLen)
			}
			if want := map[bool]Limit{false: LimitNone, true: LimitRaw}[tc.truncated]; resp.TruncatedBy != want {
				t.Errorf("TruncatedBy = %v, want %v", resp.TruncatedBy, want)
			}
		})
	}
}

// When the raw limit cuts an encoded stream, the decoder's complaint about
// the missing end is not ErrDecode: the body is truncated, and what was
// decoded is a true prefix of the original.
func TestRawLimitCutsEncodedBody(t *testing.T) {
	const limit = 16 << 10
	plain := text(256 << 10) // about 70 KiB in any coding: well over the limit
	payloads := map[string]payload{}
	for _, c := range []coding{codingGzip, codingBrotli, codingZstd, codingDeflate} {
		payloads["/"+c.String()] = payload{encoding: c.String(), body: encode(t, c, plain)}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{MaxRawBytes: limit}))
	for path := range payloads {
		t.Run(path, func(t *testing.T) {
			resp := get(t, c, Request{URL: base + path})
			if !resp.Truncated || resp.TruncatedBy != LimitRaw || resp.RawBytes != limit {
				t.Errorf("Truncated %v by %v, RawBytes %d; want by raw at %d", resp.Truncated, resp.TruncatedBy, resp.RawBytes, limit)
			}
			if !bytes.HasPrefix(plain, resp.Body) {
				t.Errorf("Body (%d bytes) is not a prefix of the original", len(resp.Body))
			}
		})
	}
}

// The decoded limit cuts the body after decoding, for every coding, and
// reading stops there: the rest of the raw body is never read.
func TestDecodedLimit(t *testing.T) {
	const limit = 64 << 10
	plain := text(512 << 10)
	payloads := map[string]payload{"/identity": {body: plain}}
	for _, c := range []coding{codingGzip, codingBrotli, codingZstd, codingDeflate} {
		payloads["/"+c.String()] = payload{encoding: c.String(), body: encode(t, c, plain)}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{MaxDecodedBytes: limit}))
	for path, p := range payloads {
		t.Run(path, func(t *testing.T) {
			resp := get(t, c, Request{URL: base + path})
			if !bytes.Equal(resp.Body, plain[:limit]) {
				t.Errorf("Body: %d bytes, want the first %d of the original", len(resp.Body), limit)
			}
			if !resp.Truncated || resp.TruncatedBy != LimitDecoded {
				t.Errorf("Truncated %v by %v, want by decoded", resp.Truncated, resp.TruncatedBy)
			}
			if resp.RawBytes >= int64(len(p.body)) {
				t.Errorf("RawBytes %d of %d: reading should stop at the decoded limit", resp.RawBytes, len(p.body))
			}
		})
	}
}

// Request limits override the client's for one Get (a robots.txt needs
// only its first 500 KiB, rule 10; a sitemap may need more than a page).
func TestRequestLimitsOverride(t *testing.T) {
	plain := text(8 << 10)
	base := servePayloads(t, map[string]payload{"/gz": {encoding: "gzip", body: encode(t, codingGzip, plain)}})
	c := newClient(t, loopback(Options{MaxDecodedBytes: 1 << 10}))

	if resp := get(t, c, Request{URL: base + "/gz"}); len(resp.Body) != 1<<10 {
		t.Errorf("client limit: %d bytes, want %d", len(resp.Body), 1<<10)
	}
	if resp := get(t, c, Request{URL: base + "/gz", MaxDecodedBytes: 100}); len(resp.Body) != 100 {
		t.Errorf("lower request limit: %d bytes, want 100", len(resp.Body))
	}
	if resp := get(t, c, Request{URL: base + "/gz", MaxDecodedBytes: 1 << 20}); !bytes.Equal(resp.Body, plain) || resp.Truncated {
		t.Errorf("higher request limit: %d bytes, truncated %v; want all %d", len(resp.Body), resp.Truncated, len(plain))
	}
	if _, err := c.Get(context.Background(), Request{URL: base + "/gz", MaxRawBytes: -1}); err == nil {
		t.Errorf("negative request limit: no error")
	}
}

// A decompression bomb (about 1 MiB on the wire, 1 GiB decoded, built from
// concatenated gzip members or zstd frames) stops at the decoded limit,
// having read little of the wire and allocated a bounded amount.
func TestDecompressionBomb(t *testing.T) {
	const (
		limit    = 1 << 20
		members  = 1024
		memberIn = 1 << 20
	)
	zeros := make([]byte, memberIn)
	payloads := map[string]payload{}
	for _, c := range []coding{codingGzip, codingZstd} {
		payloads["/"+c.String()] = payload{encoding: c.String(), body: bytes.Repeat(encode(t, c, zeros), members)}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{MaxDecodedBytes: limit}))
	for path, p := range payloads {
		t.Run(path, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp := get(t, c, Request{URL: base + path})
			runtime.ReadMemStats(&after)

			if len(resp.Body) != limit || resp.TruncatedBy != LimitDecoded {
				t.Errorf("Body %d bytes, TruncatedBy %v; want %d, decoded", len(resp.Body), resp.TruncatedBy, limit)
			}
			if resp.RawBytes > int64(len(p.body))/16 {
				t.Errorf("read %d of %d raw bytes; reading should stop soon after the limit", resp.RawBytes, len(p.body))
			}
			// Budget: the body buffer (it grows to the limit and no
			// further), decoder state (zstd may hold an 8 MiB window,
			// RFC 9659) and the server's side of the test. A decoder
			// run to the end would allocate 1 GiB.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("allocated %d MiB for a %d MiB limit", alloc>>20, limit>>20)
			} else {
				t.Logf("%s bomb: %d raw bytes read, %.1f MiB allocated", path, resp.RawBytes, float64(alloc)/(1<<20))
			}
		})
	}
}

// A body cut off by the connection (fewer bytes than Content-Length) is a
// read error, not a truncation and not a decode error.
func TestShortBodyIsReadError(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		fmt.Fprint(w, "only this much")
	})
	c := newClient(t, loopback(Options{}))
	resp, err := c.Get(context.Background(), Request{URL: srv.URL})
	if err == nil || Classify(err) != KindReset {
		t.Fatalf("err = %v (kind %v), want a reset", err, Classify(err))
	}
	if resp == nil || string(resp.Body) != "only this much" || resp.Truncated {
		t.Errorf("response %+v, want the bytes that came, not truncated", resp)
	}
}
