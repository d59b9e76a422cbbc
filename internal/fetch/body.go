package fetch

import (
	"bufio"
	"bytes"
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

// readBody reads r, undoes coding c and applies both limits. sizeHint (the
// Content-Length, or -1) only sizes the first buffer. With keepRaw the raw
// bytes are kept too.
//
// The error is nil when the body was read to its end or to a limit. A
// decoder complaining after the raw limit cut its input is not an error: the
// body is truncated, not corrupt. Otherwise a failure to read r is returned
// as is, and a corrupt coding wraps ErrDecode. Even with an error, the
// returned body holds what was read before it.
func readBody(r io.Reader, c coding, lim limits, sizeHint int64, keepRaw bool) (body, error) {
	var b body
	raw := &limitReader{r: r, n: lim.raw, kind: LimitRaw, first: &b.truncatedBy}
	var rawBuf bytes.Buffer
	var src io.Reader = raw
	if keepRaw {
		src = io.TeeReader(raw, &rawBuf)
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
		}
		return b, fmt.Errorf("decode body: %w (%v): %w", ErrDecode, c, err)
	}

	if c == codingIdentity || c == codingUnknown {
		out := &limitReader{r: src, n: lim.decoded, kind: LimitDecoded, first: &b.truncatedBy}
		var err error
		b.decoded, err = readAll(out, capHint(sizeHint, min(lim.raw, lim.decoded)), lim.decoded)
		return finish(err)
	}

	br := bufio.NewReader(src)
	if _, err := br.Peek(1); err != nil {
		// An empty body (HEAD-like answers, 204, 304) has nothing to
		// decode, whatever Content-Encoding says.
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return finish(err)
	}
	dec, err := newDecoder(c, br)
	if err != nil {
		return finish(err)
	}
	defer dec.Close()
	out := &limitReader{r: dec, n: lim.decoded, kind: LimitDecoded, first: &b.truncatedBy}
	b.decoded, err = readAll(out, capHint(-1, lim.decoded), lim.decoded)
	return finish(err)
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
func readAll(r io.Reader, hint int, limit int64) ([]byte, error) {
	maxCap := int(limit) + 1
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
			if size <= len(b) { // r broke its limit; keep reading anyway
				size = 2 * len(b)
			}
			nb := make([]byte, len(b), size)
			copy(nb, b)
			b = nb
		}
	}
}
