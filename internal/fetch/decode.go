package fetch

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// AcceptEncoding is the Accept-Encoding header of every request: the codings
// this package decodes itself. Setting it turns off net/http's transparent
// gzip, which is what lets us limit and check the decoded body.
const AcceptEncoding = "gzip, br, zstd"

// zstdMaxWindow is the largest zstd window accepted: RFC 9659 caps the window
// of the "zstd" content coding at 8 MiB, so a larger one is not valid HTTP
// content and would only cost memory.
const zstdMaxWindow = 8 << 20

// coding is a content coding this package knows how to undo.
type coding int

const (
	codingIdentity coding = iota
	codingGzip
	codingBrotli
	codingZstd
	codingDeflate
	codingUnknown
)

func (c coding) String() string {
	switch c {
	case codingIdentity:
		return "identity"
	case codingGzip:
		return "gzip"
	case codingBrotli:
		return "br"
	case codingZstd:
		return "zstd"
	case codingDeflate:
		return "deflate"
	}
	return "unknown"
}

// parseContentEncoding reads the Content-Encoding field values (several
// lines and comma lists both count) and returns the coding to undo. It also
// returns the normalized list (lower-case, ", "-joined, identity dropped),
// which names the coding when it is codingUnknown.
//
// Only one coding is undone. A server that stacks codings ("gzip, br") did
// not get that from our Accept-Encoding; it gets codingUnknown, so the
// caller receives the raw bytes, flagged, rather than a decoder chain whose
// cost we did not ask for. "x-gzip" is gzip (RFC 9110 §8.4.1.3); "deflate"
// is undone though not asked for, as servers send it anyway.
func parseContentEncoding(values []string) (coding, string) {
	var names []string
	for _, v := range values {
		for _, tok := range strings.Split(v, ",") {
			tok = lowerASCII(trimOWS(tok))
			if tok == "" || tok == "identity" {
				continue
			}
			names = append(names, tok)
		}
	}
	switch {
	case len(names) == 0:
		return codingIdentity, ""
	case len(names) > 1:
		return codingUnknown, strings.Join(names, ", ")
	}
	switch names[0] {
	case "gzip", "x-gzip":
		return codingGzip, names[0]
	case "br":
		return codingBrotli, names[0]
	case "zstd":
		return codingZstd, names[0]
	case "deflate":
		return codingDeflate, names[0]
	}
	return codingUnknown, names[0]
}

// newDecoder returns a reader of the decoded form of r, which holds at least
// one byte. An error here is a corrupt stream header; a read error of r
// itself is left for the caller to find in its own reader.
func newDecoder(c coding, r *bufio.Reader) (io.ReadCloser, error) {
	switch c {
	case codingGzip:
		return gzip.NewReader(r)
	case codingBrotli:
		return io.NopCloser(brotli.NewReader(r)), nil
	case codingZstd:
		d, err := zstd.NewReader(r,
			zstd.WithDecoderConcurrency(1), // decode on the caller's goroutine
			zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	case codingDeflate:
		// RFC 9110 says "deflate" is zlib (RFC 1950), but some servers
		// send a bare deflate stream (RFC 1951). Sniff the zlib header.
		if hdr, _ := r.Peek(2); len(hdr) == 2 && isZlibHeader(hdr[0], hdr[1]) {
			return zlib.NewReader(r)
		}
		return flate.NewReader(r), nil
	}
	return nil, fmt.Errorf("no decoder for %v", c)
}

// isZlibHeader reports whether b0 b1 are a zlib header: method 8 (deflate)
// and a check value making the pair a multiple of 31 (RFC 1950 §2.2).
func isZlibHeader(b0, b1 byte) bool {
	return b0&0x0f == 8 && b0>>4 <= 7 && (uint16(b0)<<8|uint16(b1))%31 == 0
}
