package sitemap

import (
	"fmt"
	"io"
)

// charsetConverter returns what turns a document in the encoding its XML
// declaration names into UTF-8; nil means the bytes are read as they are.
// encoding/xml asks only about encodings other than UTF-8.
//
// Labels of US-ASCII are read as UTF-8, labels of ISO-8859-1 converted, and
// any other label (windows-1252, Shift_JIS, UTF-16...) refused with
// ErrMalformed rather than guessed at; see the package documentation.
func charsetConverter(label string) (func(io.Reader) io.Reader, error) {
	switch {
	case oneOf(label, "utf8", "us-ascii", "ascii", "us", "iso646-us", "ansi_x3.4-1968"):
		return nil, nil
	case oneOf(label, "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1"):
		return func(r io.Reader) io.Reader { return &latin1Reader{r: r} }, nil
	}
	return nil, fmt.Errorf("%w: unsupported encoding %q (sitemaps are UTF-8)", ErrMalformed, clip(label))
}

// oneOf reports whether label equals one of names under ASCII case folding.
func oneOf(label string, names ...string) bool {
	for _, n := range names {
		if asciiEqualFold(label, n) {
			return true
		}
	}
	return false
}

// clip shortens s, which comes from the document, for use in an error message.
func clip(s string) string {
	const max = 64
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// latin1Reader converts ISO-8859-1 to UTF-8: bytes below 0x80 are copied,
// the others become two bytes.
type latin1Reader struct {
	r       io.Reader
	scratch []byte
	pending byte // second byte of a character that did not fit; never 0
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := 0
	if l.pending != 0 {
		p[0], l.pending = l.pending, 0
		n = 1
		if len(p) == 1 {
			return n, nil
		}
	}
	// Read no more than can be written even if every byte expands.
	want := max((len(p)-n)/2, 1)
	if cap(l.scratch) < want {
		l.scratch = make([]byte, want)
	}
	m, err := l.r.Read(l.scratch[:want])
	for _, c := range l.scratch[:m] {
		if c < 0x80 {
			p[n] = c
			n++
			continue
		}
		p[n] = 0xC0 | c>>6
		n++
		if n == len(p) {
			l.pending = 0x80 | c&0x3F
			break // only possible for the last byte, when want was 1
		}
		p[n] = 0x80 | c&0x3F
		n++
	}
	if err == io.EOF && l.pending != 0 {
		err = nil // deliver the pending byte first
	}
	return n, err
}
