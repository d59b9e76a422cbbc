package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// limitReader passes on at most n bytes of r. Once n bytes have gone by it
// reads one more byte to learn whether r had more; if so it records its
// kind in *first (unless another limit got there first) and reports EOF.
// It remembers r's first error other than io.EOF, so the caller can tell a
// network failure from a decoder's complaint about a stream cut short.
type limitReader struct {
	r     io.Reader
	n     int64 // bytes still allowed
	read  int64 // bytes passed on
	kind  Limit
	first *Limit
	hit   bool
	err   error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.hit {
		return 0, io.EOF
	}
	if l.n <= 0 {
		var probe [1]byte
		n, err := readSome(l.r, probe[:])
		if n > 0 {
			l.hit = true
			if *l.first == LimitNone {
				*l.first = l.kind
			}
			return 0, io.EOF
		}
		return 0, l.note(err)
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	l.read += int64(n)
	return n, l.note(err)
}

func (l *limitReader) note(err error) error {
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return err
}

// body is what readBody got out of a response body.
type body struct {
	decoded     []byte // the body after content decoding
	raw         []byte // the bytes as received; only when asked for
	rawBytes    int64  // how many bytes were received
	truncatedBy Limit  // the first limit that cut the body, if any
}

// bodyReader holds what readBody needs besides the body: the request's
// context (budget waits end with it) and its charge on the memory budget.
// With a nil charge nothing is charged (tests of the decoding alone).
type bodyReader struct {
	ctx    context.Context
	charge *charge
	// capture, when set, is the wire copy the client keeps of the exchange (Options.Capture):
	// it is charged with the body (issue 29: WARC capture copies charged to the bodies' share).
	capture *captureWatch
}

// captureWatch is the wire copy a capturing client keeps of one exchange (Options.Capture, for
// a WARC record): the request and the response as they went over the connection.
type captureWatch struct {
	size func() int64 // bytes recorded so far
	max  int64        // the most it can hold: what the Recorder keeps of a response, and the request
}

// captureReadAhead is how far the wire copy may run ahead of the body read: the Transport reads
// the connection through a buffer of this size.
const captureReadAhead = 4 << 10

// captureGuard takes the rest of a capturing request's charge (grow) before the wire copy
// passes what its first grant holds (held): the copy grows as the Transport reads the
// connection, ahead of the body reader by at most captureReadAhead.
type captureGuard struct {
	r     io.Reader
	w     *captureWatch
	held  int64
	grow  func() error
	grown bool
}

func (g *captureGuard) Read(p []byte) (int, error) {
	if !g.grown && g.w.size()+int64(len(p))+captureReadAhead > g.held {
		if err := g.grow(); err != nil {
			return 0, err
		}
		g.grown = true
	}
	return g.r.Read(p)
}

// readBody reads r, undoes coding c and applies both limits. sizeHint (the
// Content-Length, or -1) only sizes the first buffer. With keepRaw the raw
// bytes are kept too.
//
// Every buffer is charged to br.charge before it is allocated: the raw copy
// and the decoder's cost with the first buffer, then the decoded buffer as
// it grows (past firstGrant, everything the limits allow at once).
//
// The error is nil when the body was read to its end or to a limit. A
// decoder complaining after the raw limit cut its input is not an error: the
// body is truncated, not corrupt. Otherwise a failure to read r is returned
// as is, and a corrupt coding wraps ErrDecode. Even with an error, the
// returned body holds what was read before it.
func (br bodyReader) readBody(r io.Reader, c coding, lim limits, sizeHint int64, keepRaw bool) (body, error) {
	var b body
	raw := &limitReader{r: r, n: lim.raw, kind: LimitRaw, first: &b.truncatedBy}
	var rawBuf bytes.Buffer
	var src io.Reader = raw
	var fixed int64 // charged whatever the body's size: the raw copy, the decoder
	if keepRaw {
		src = io.TeeReader(raw, &rawBuf)
		fixed = lim.raw + 1 // released by Get once OnExchange returned
	}
	// The wire copy (issue 29): what a body of known length needs, or the first grant's worth
	// with the first buffer and the rest (capRest) with the request's growth; full always has
	// room for all of it.
	var capRest int64
	var full int64 // the request's whole charge, once known: what the guard grows to
	if w := br.capture; w != nil && br.charge != nil {
		now, capFirst := w.size(), int64(0)
		if (c == codingIdentity || c == codingUnknown) && sizeHint >= 0 {
			capFirst = min(w.max, now+min(sizeHint, lim.raw)+captureReadAhead)
		} else {
			capFirst = min(w.max, now+firstGrant)
			capRest = w.max - capFirst
		}
		fixed += capFirst
		if capRest > 0 {
			src = &captureGuard{r: src, w: w, held: capFirst, grow: func() error {
				if full == 0 { // not known yet: a peek stays within the first grant
					return nil
				}
				if err := br.charge.grow(br.ctx, full, full); err != nil {
					return budgetError{err}
				}
				return nil
			}}
		}
	}
	finish := func(err error) (body, error) {
		b.rawBytes = raw.read
		if keepRaw {
			b.raw = rawBuf.Bytes()
		}
		switch {
		case err == nil:
			return b, nil
		case raw.err != nil:
			return b, fmt.Errorf("read body: %w", raw.err)
		case c == codingIdentity || c == codingUnknown: // no decoder to blame
			return b, fmt.Errorf("read body: %w", err)
		case b.truncatedBy == LimitRaw:
			return b, nil
		case errors.As(err, new(budgetError)):
			return b, err
		}
		return b, fmt.Errorf("decode body: %w (%v): %w", ErrDecode, c, err)
	}

	if c == codingIdentity || c == codingUnknown {
		limit := min(lim.raw, lim.decoded)
		hint := capHint(sizeHint, limit)
		full = fixed + bufferPeak(limit) + capRest
		grow, err := br.grower(fixed, hint, full, sizeHint >= 0)
		if err != nil {
			return finish(err)
		}
		out := &limitReader{r: src, n: lim.decoded, kind: LimitDecoded, first: &b.truncatedBy}
		b.decoded, err = readAll(out, hint, limit, grow) // the raw limit bounds it too
		return finish(err)
	}

	bsrc := bufio.NewReader(src)
	first, err := bsrc.Peek(1)
	if err != nil {
		// An empty body (HEAD-like answers, 204, 304) has nothing to
		// decode, whatever Content-Encoding says.
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return finish(err)
	}
	fixed += decoderCost(c, first[0])
	hint := capHint(-1, lim.decoded)
	full = fixed + bufferPeak(lim.decoded) + capRest
	grow, err := br.grower(fixed, hint, full, false)
	if err != nil {
		return finish(err)
	}
	dec, err := newDecoder(c, bsrc)
	if err != nil {
		return finish(err)
	}
	defer dec.Close()
	out := &limitReader{r: dec, n: lim.decoded, kind: LimitDecoded, first: &b.truncatedBy}
	b.decoded, err = readAll(out, hint, lim.decoded, grow)
	return finish(err)
}

// bufferPeak is the most readAll holds for a body of at most limit bytes:
// the final buffer of limit+1 bytes and, while it is filled by a copy, the
// buffer of at most half that size it replaces (readAll doubles its buffer
// and jumps to the limit from at most half of it). A first buffer sized by
// Content-Length never grows: net/http reads no more than it announced.
func bufferPeak(limit int64) int64 {
	return limit + 1 + (limit+1)/2
}

// budgetError marks a failure to get memory budget (the request's context
// ended while it waited), so it is not taken for a corrupt coding.
type budgetError struct{ err error }

func (e budgetError) Error() string { return e.err.Error() }
func (e budgetError) Unwrap() error { return e.err }

// grower charges the first buffer (fixed plus hint bytes, at most full) and
// returns the function readAll calls before growing the buffer to size
// bytes: it charges fixed+size, and past the first grant everything up to
// full at once.
//
// known says that hint comes from the Content-Length of an identity body:
// then the first grant is all the request takes.
func (br bodyReader) grower(fixed int64, hint int, full int64, known bool) (func(size int) error, error) {
	if br.charge == nil {
		return func(int) error { return nil }, nil
	}
	first := min(full, fixed+firstGrant)
	switch {
	case known:
		// Content-Length sized the buffer: net/http reads no more than it
		// announced, so the body never grows past it.
		first = min(full, fixed+int64(hint))
		full = first
	case int64(hint) > firstGrant:
		first = full // a large body is expected: take everything at once
	}
	if err := br.charge.first(br.ctx, first, full); err != nil {
		return nil, budgetError{err}
	}
	return func(size int) error {
		if err := br.charge.grow(br.ctx, fixed+int64(size), full); err != nil {
			return budgetError{err}
		}
		return nil
	}, nil
}

// capHint is the first buffer size for a body of expected size n (-1 when
// unknown) under limit.
func capHint(n, limit int64) int {
	const unknown = 32 << 10
	if n < 0 {
		n = unknown
	}
	// One byte more than the body lets the reader see EOF without growing.
	return int(min(n, limit) + 1)
}

// maxEmptyReads is how many reads in a row may return no bytes and no
// error before a reader is deemed stuck (io.ErrNoProgress), as in bufio.
// A decoder that loops without progress must not spin until the timeout.
const maxEmptyReads = 100

// readSome reads into p until it gets at least one byte or an error.
func readSome(r io.Reader, p []byte) (int, error) {
	for range maxEmptyReads {
		if n, err := r.Read(p); n > 0 || err != nil {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// readAll is io.ReadAll with a first buffer of size hint that never grows
// past limit+1 bytes: r (a limitReader) passes at most limit bytes, and the
// one spare byte lets it report EOF without another growth. Doubling past
// the limit would make a body at the limit cost twice its size.
//
// grow is called before each allocation with the bytes live once it is made
// (the new buffer, plus the old one while it is copied); its error ends the
// read. At most bufferPeak(limit) bytes are asked for.
func readAll(r io.Reader, hint int, limit int64, grow func(size int) error) ([]byte, error) {
	maxCap := int(limit) + 1
	if err := grow(min(hint, maxCap)); err != nil {
		return nil, err
	}
	b := make([]byte, 0, min(hint, maxCap))
	for {
		n, err := readSome(r, b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			size := min(2*cap(b), maxCap)
			if size > maxCap/2 {
				// Go straight to the limit from at most half of it, so
				// the buffer and its copy never pass bufferPeak.
				size = maxCap
			}
			if size <= len(b) { // r broke its limit; keep reading anyway
				size = 2 * len(b)
			}
			if err := grow(size + cap(b)); err != nil { // both live while copying
				return b, err
			}
			nb := make([]byte, len(b), size)
			copy(nb, b)
			b = nb
		}
	}
}
