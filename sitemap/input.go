package sitemap

import (
	"errors"
	"io"
)

// The readers of the input stack, from the caller's reader inward:
//
//	caller's io.Reader → sourceReader → bufio (gzip sniffing) → [gzip] →
//	decodedLimit → tokenGuard → bufio (format sniffing, parsing)
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

// tokenGuard refuses to pass more than max+1 bytes past the start of the
// current XML token, so that the XML decoder, which keeps a whole token in
// memory, never holds more than that. The parser calls markToken before
// asking the decoder for each token. A max of zero or less turns the guard
// off (text sitemaps).
//
// The +1 lets a token of exactly max bytes be followed by the byte that ends
// it (the '<' after a run of text).
type tokenGuard struct {
	r       io.Reader
	max     int64
	n       int64 // bytes passed through so far
	start   int64 // value of n at the start of the current token
	tripped bool
}

func (g *tokenGuard) Read(p []byte) (int, error) {
	if g.max > 0 {
		allowed := g.start + g.max + 1 - g.n
		if allowed <= 0 {
			g.tripped = true
			return 0, errTokenLimit
		}
		if int64(len(p)) > allowed {
			p = p[:allowed]
		}
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}

// markToken records that a token starts after everything passed through so
// far except the buffered bytes the parser's bufio.Reader has not handed out.
func (g *tokenGuard) markToken(buffered int) {
	g.start = g.n - int64(buffered)
}
