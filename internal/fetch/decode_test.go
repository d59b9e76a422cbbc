package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// rawDeflate stands for a bare RFC 1951 stream sent as "deflate", which
// some servers do instead of zlib.
const rawDeflate coding = -1

// encode compresses data with coding c.
func encode(t testing.TB, c coding, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch c {
	case codingGzip:
		w = gzip.NewWriter(&buf)
	case codingBrotli:
		w = brotli.NewWriterLevel(&buf, 4) // fast enough under -race
	case codingZstd:
		w, err = zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	case codingDeflate:
		w = zlib.NewWriter(&buf)
	case rawDeflate:
		w, err = flate.NewWriter(&buf, flate.DefaultCompression)
	default:
		t.Fatalf("encode: no encoder for %v", c)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// text returns n bytes of deterministic, word-like text: compressible, but
// not trivially.
func text(n int) []byte {
	words := strings.Fields("crawl robots disallow allow sitemap agent fetch index origin pause delay query")
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(" \n"[r.IntN(2)])
	}
	return b.Bytes()[:n]
}

// payload is what a test server sends for one path.
type payload struct {
	encoding string // Content-Encoding; empty: none
	status   int    // 0: 200
	body     []byte
}

// servePayloads serves each payload at its path, with an exact
// Content-Length.
func servePayloads(t *testing.T, payloads map[string]payload) string {
	t.Helper()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		p, ok := payloads[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.encoding != "" {
			w.Header().Set("Content-Encoding", p.encoding)
		}
		w.WriteHeader(max(p.status, http.StatusOK))
		w.Write(p.body)
	})
	return srv.URL
}

// Every coding we advertise is decoded; "identity" and unknown or stacked
// codings are passed through (unknown ones flagged).
func TestGetDecodesContentCodings(t *testing.T) {
	plain := text(200 << 10) // larger than any decoder's buffer
	gz := encode(t, codingGzip, plain)
	cases := []struct {
		name, encoding string
		body           []byte
		wantBody       []byte
		wantUnknown    string
	}{
		{"none", "", plain, plain, ""},
		{"identity", "identity", plain, plain, ""},
		{"gzip", "gzip", gz, plain, ""},
		{"x-gzip", "x-gzip", gz, plain, ""},
		{"upper case", "GZIP", gz, plain, ""},
		{"identity and spaces", " identity , gzip ", gz, plain, ""},
		{"br", "br", encode(t, codingBrotli, plain), plain, ""},
		{"zstd", "zstd", encode(t, codingZstd, plain), plain, ""},
		{"deflate zlib", "deflate", encode(t, codingDeflate, plain), plain, ""},
		{"deflate raw", "deflate", encode(t, rawDeflate, plain), plain, ""},
		{"unknown", "compress", []byte("LZW bytes"), []byte("LZW bytes"), "compress"},
		{"stacked", "gzip, br", encode(t, codingBrotli, gz), encode(t, codingBrotli, gz), "gzip, br"},
	}
	payloads := make(map[string]payload)
	for _, tc := range cases {
		payloads["/"+tc.name] = payload{encoding: tc.encoding, body: tc.body}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := get(t, c, Request{URL: base + "/" + strings.ReplaceAll(tc.name, " ", "%20")})
			if !bytes.Equal(resp.Body, tc.wantBody) {
				t.Errorf("Body: %d bytes, want %d", len(resp.Body), len(tc.wantBody))
			}
			if resp.UnknownEncoding != tc.wantUnknown {
				t.Errorf("UnknownEncoding = %q, want %q", resp.UnknownEncoding, tc.wantUnknown)
			}
			if resp.RawBytes != int64(len(tc.body)) || resp.Truncated {
				t.Errorf("RawBytes %d (want %d), Truncated %v", resp.RawBytes, len(tc.body), resp.Truncated)
			}
		})
	}
}

// An empty body has nothing to decode, whatever Content-Encoding claims:
// 204 and 304 answers often carry the header of the full response.
func TestGetEmptyEncodedBody(t *testing.T) {
	payloads := map[string]payload{}
	for _, enc := range []string{"gzip", "br", "zstd", "deflate"} {
		payloads["/"+enc] = payload{encoding: enc, status: http.StatusNoContent}
		payloads["/200/"+enc] = payload{encoding: enc}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{}))
	for path := range payloads {
		resp, err := c.Get(context.Background(), Request{URL: base + path})
		if err != nil || len(resp.Body) != 0 {
			t.Errorf("%s: err %v, body %q; want no error and no body", path, err, resp.Body)
		}
	}
}

// A corrupt coding is an error wrapping ErrDecode; the response still comes
// back, so a 503 with a broken body still pauses the origin (rule 23).
func TestGetCorruptEncoding(t *testing.T) {
	plain := text(64 << 10)
	gz := encode(t, codingGzip, plain)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-8] ^= 0xff // first byte of the CRC-32 trailer
	br := encode(t, codingBrotli, plain)
	zs := encode(t, codingZstd, plain)
	badZstd := bytes.Clone(zs)
	badZstd[len(badZstd)/2] ^= 0xff
	cases := []struct {
		name, encoding string
		body           []byte
	}{
		{"gzip not gzip", "gzip", []byte("<html>plain text, mislabelled</html>")},
		{"gzip cut short", "gzip", gz[:len(gz)/2]},
		{"gzip bad checksum", "gzip", badCRC},
		{"gzip trailing garbage", "gzip", append(bytes.Clone(gz), "garbage"...)},
		{"br garbage", "br", bytes.Repeat([]byte{0xff}, 64)},
		{"br cut short", "br", br[:len(br)/2]},
		{"zstd not zstd", "zstd", []byte("<html>plain text, mislabelled</html>")},
		{"zstd cut short", "zstd", zs[:len(zs)/2]},
		{"zstd flipped byte", "zstd", badZstd},
		{"deflate garbage", "deflate", bytes.Repeat([]byte{0xff}, 64)},
	}
	payloads := make(map[string]payload)
	for _, tc := range cases {
		payloads["/"+tc.name] = payload{encoding: tc.encoding, status: http.StatusServiceUnavailable, body: tc.body}
	}
	base := servePayloads(t, payloads)
	c := newClient(t, loopback(Options{}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.Get(context.Background(), Request{URL: base + "/" + strings.ReplaceAll(tc.name, " ", "%20")})
			if !errors.Is(err, ErrDecode) {
				t.Fatalf("err = %v, want one wrapping ErrDecode", err)
			}
			if k := Classify(err); k != KindDecode {
				t.Errorf("Classify = %v, want decode", k)
			}
			if resp == nil || resp.Status != http.StatusServiceUnavailable {
				t.Fatalf("response %+v, want the 503 despite the bad body", resp)
			}
			if !bytes.HasPrefix(plain, resp.Body) {
				t.Errorf("Body holds %d bytes that are not a prefix of the original", len(resp.Body))
			}
		})
	}
}

func TestParseContentEncoding(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   coding
		list   string
	}{
		{nil, codingIdentity, ""},
		{[]string{""}, codingIdentity, ""},
		{[]string{"identity"}, codingIdentity, ""},
		{[]string{"Br"}, codingBrotli, "br"},
		{[]string{"identity", "zstd"}, codingZstd, "zstd"},
		{[]string{"\tdeflate\t"}, codingDeflate, "deflate"},
		{[]string{"gzip", "gzip"}, codingUnknown, "gzip, gzip"},
		{[]string{"x-compress"}, codingUnknown, "x-compress"},
		// ASCII-only folding (docs/design.md "Known traps"): U+017F LATIN
		// SMALL LETTER LONG S folds to "s" in Unicode, but this is not zstd.
		{[]string{"z\u017Ftd"}, codingUnknown, "z\u017Ftd"},
	} {
		got, list := parseContentEncoding(tc.values)
		if got != tc.want || list != tc.list {
			t.Errorf("parseContentEncoding(%q) = %v, %q; want %v, %q", tc.values, got, list, tc.want, tc.list)
		}
	}
}

// stuckReader returns no bytes and no error, forever.
type stuckReader struct{}

func (stuckReader) Read([]byte) (int, error) { return 0, nil }

// A reader that makes no progress ends the read with io.ErrNoProgress
// instead of spinning until the total timeout.
func TestReadBodyNoProgress(t *testing.T) {
	_, err := bodyReader{}.readBody(stuckReader{}, codingIdentity, limits{raw: 10, decoded: 10}, -1, false)
	if !errors.Is(err, io.ErrNoProgress) || errors.Is(err, ErrDecode) {
		t.Errorf("err = %v, want io.ErrNoProgress and not ErrDecode", err)
	}
}
