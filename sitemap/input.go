package sitemap

import (
	"bufio"
	"errors"
	"io"
)

// The readers of the input stack, from the caller's reader inward:
//
//	caller's io.Reader → sourceReader → bufio (gzip sniffing) →
//	[gunzipReader] → decodedLimit → bufio (format sniffing, parsing) →
//	[tokenGuard → xml.Decoder]
//
// Errors the inner readers invent are internal sentinels; Parse turns them
// into a cut or a wrapped error.

var (
	errDecodedLimit = errors.New("sitemap: decoded size limit reached")
	errTokenLimit   = errors.New("sitemap: token size limit reached")
)

// sourceReader remembers the first error, other than io.EOF, returned by the
// caller's reader, so that Parse can tell a failed read (the network) from
// bad bytes (the document) whatever layers the error went through.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// decodedLimit passes through at most left bytes. Once they are used it
// reads one more byte to tell a document of exactly the limit (io.EOF) from
// a longer one (errDecodedLimit, and exceeded is set).
type decodedLimit struct {
	r        io.Reader
	left     int64
	exceeded bool
	probe    [1]byte
}

func (l *decodedLimit) Read(p []byte) (int, error) {
	if l.exceeded {
		return 0, errDecodedLimit
	}
	if l.left <= 0 {
		if _, err := io.ReadFull(l.r, l.probe[:]); err != nil {
			return 0, err // io.EOF: the document ended exactly at the limit
		}
		l.exceeded = true
		return 0, errDecodedLimit
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// tokenGuard stands between the parser's bufio.Reader and the XML decoder
// and refuses to hand the decoder more than max+1 bytes from the start of the
// current token, so that the decoder, which keeps a whole token in memory,
// never holds more than that. The parser calls markToken with the decoder's
// input offset before asking it for each token. The decoder reads through
// ReadByte, one byte at a time, so the count is exact.
//
// The +1 is the byte that shows where a token of exactly max bytes ends (the
// '<' after a run of text), which the decoder reads and puts back.
type tokenGuard struct {
	src   byteSource
	max   int64
	n     int64 // bytes handed out so far
	start int64 // value of n at the start of the current token
}

// byteSource is what a tokenGuard reads from: a *bufio.Reader.
type byteSource interface {
	io.Reader
	io.ByteReader
}

func (g *tokenGuard) ReadByte() (byte, error) {
	if g.n-g.start > g.max {
		return 0, errTokenLimit
	}
	c, err := g.src.ReadByte()
	if err == nil {
		g.n++
	}
	return c, err
}

// Read is there because encoding/xml requires its reader to be an io.Reader
// when a document declares an encoding; the decoder itself uses ReadByte.
func (g *tokenGuard) Read(p []byte) (int, error) {
	allowed := g.start + g.max + 1 - g.n
	if allowed <= 0 {
		return 0, errTokenLimit
	}
	if int64(len(p)) > allowed {
		p = p[:allowed]
	}
	n, err := g.src.Read(p)
	g.n += int64(n)
	return n, err
}

// markToken records that a token starts at the decoder's input offset.
func (g *tokenGuard) markToken(offset int64) {
	g.start = offset
}

// convert makes the guard read through convert from now on (a charset
// conversion), so that it keeps counting the bytes the decoder sees. A nil
// convert changes nothing.
func (g *tokenGuard) convert(convert func(io.Reader) io.Reader) {
	if convert != nil {
		g.src = bufio.NewReader(convert(g.src))
	}
}
