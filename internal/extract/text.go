package extract

import (
	"strings"
	"unicode/utf8"
)

// textBuf accumulates text with whitespace collapsed and invalid UTF-8
// replaced by U+FFFD, up to max bytes. Once a character does not fit, the
// buffer is full and ignores everything after, so its content is always a
// prefix of what an uncapped buffer would hold. The zero value has max 0
// and is full at the first character. Not safe for concurrent use.
type textBuf struct {
	b     []byte
	max   int
	space bool // a separator is due before the next character
	full  bool // a character did not fit
}

// write appends p, a piece of text. p may hold invalid UTF-8 but must not
// end inside a character another write continues (callers pass whole
// tokens, or whole decoded chunks cut at a character boundary).
func (t *textBuf) write(p []byte) {
	for i := 0; i < len(p) && !t.full; {
		c := p[i]
		switch {
		case c == 0:
			// Dropped, as the HTML tree builder drops U+0000 in body text.
			i++
		case isCollapsible(c):
			t.space = true
			i++
		case c < utf8.RuneSelf:
			// A run of printable ASCII goes in at once, with the single
			// spaces between its words: this is most text, and a put per
			// word was most of write's cost (issue 26). A single space
			// between two characters is what collapsing leaves anyway.
			j := i + 1
			for j < len(p) {
				if isPrintableASCII(p[j]) {
					j++
				} else if p[j] == ' ' && j+1 < len(p) && isPrintableASCII(p[j+1]) {
					j += 2
				} else {
					break
				}
			}
			t.put(p[i:j])
			i = j
		default:
			r, n := utf8.DecodeRune(p[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				t.put(replacementChar)
			case r == noBreakSpace:
				t.space = true
			default:
				t.put(p[i : i+n])
			}
			i += n
		}
	}
}

// brk marks a word boundary: the next character, if any, is preceded by
// one space.
func (t *textBuf) brk() { t.space = true }

// put appends run, one encoded character or a run of ASCII characters
// (printable, single spaces between them), after the pending separator.
// What does not fit is dropped and the buffer becomes full; a run is cut
// between two of its characters (ASCII, so at any byte) but never just
// after one of its spaces, which separates a word that did not fit; a
// single multi-byte character is not cut.
func (t *textBuf) put(run []byte) {
	sep := 0
	if t.space && len(t.b) > 0 {
		sep = 1
	}
	room := t.max - len(t.b) - sep
	n := len(run)
	if n > room {
		t.full = true
		if len(run) > 1 && run[0] >= utf8.RuneSelf {
			return // one multi-byte character that does not fit
		}
		n = room
		if n > 0 && run[n-1] == ' ' {
			n--
		}
	}
	if n <= 0 {
		return
	}
	if sep == 1 {
		t.b = append(t.b, ' ')
	}
	t.b = append(t.b, run[:n]...)
	t.space = false
}

// String returns a copy of the text collected so far. (A strings.Builder
// would save the copy but not the anchor buffers' reuse, and the string
// would keep the buffer's spare capacity alive.)
func (t *textBuf) String() string { return string(t.b) }

// empty reports whether no character has been collected.
func (t *textBuf) empty() bool { return len(t.b) == 0 }

// reset empties the buffer, keeping its memory and its max.
func (t *textBuf) reset() {
	t.b = t.b[:0]
	t.space = false
	t.full = false
}

const noBreakSpace = '\u00a0'

var replacementChar = []byte(string(utf8.RuneError))

// isPrintableASCII reports whether c is an ASCII character write keeps as
// it is: neither collapsible nor a space.
func isPrintableASCII(c byte) bool { return c > ' ' && c < 0x7f }

// isCollapsible reports whether the ASCII byte c is collapsed into a word
// separator: ASCII whitespace and the other ASCII control characters.
func isCollapsible(c byte) bool { return c <= ' ' || c == 0x7f }

// validString returns b as a string, each invalid UTF-8 sequence replaced
// by U+FFFD. Used for attribute values (the tokenizer's slices are only
// valid until its next call, so this is also their copy).
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), string(utf8.RuneError))
}

// validUTF8 is validString for a string.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, string(utf8.RuneError))
}
