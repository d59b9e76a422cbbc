package robotstxt

import (
	"math/bits"
	"strings"
)

// lineScanner splits text into lines ending at CR, LF or CRLF, in any mix
// (docs/robots-rules.md rule 1), and in the same pass finds where each
// line's comment starts and the colon before it (rule 2). Unlike
// bufio.Scanner it has no line length limit and splits on a lone CR. It
// reads eight octets at a time and runs in linear time. The zero value is
// not ready; use newLineScanner.
type lineScanner struct {
	s   string
	pos int // start of the next line
	// The index of the next LF and of the next CR at or after some point,
	// len(s) if none, -1 if not searched yet: a comment's end is found
	// with them, each searched for once per occurrence.
	nextLF, nextCR int
}

func newLineScanner(s string) lineScanner { return lineScanner{s: s, nextLF: -1, nextCR: -1} }

// scannedLine is one line of text without its terminator.
type scannedLine struct {
	text       string
	colon      int  // index in text of the first ":" before any "#", or -1
	hash       int  // index in text of the first "#", or -1
	terminated bool // a line terminator followed the line
}

// next returns the next line; ok is false when the text is exhausted. A
// terminator at the very end does not start another line.
func (sc *lineScanner) next() (l scannedLine, ok bool) {
	s, start := sc.s, sc.pos
	if start >= len(s) {
		return l, false
	}
	l.colon, l.hash = -1, -1
	i := start
	for {
		i = nextSpecial(s, i)
		if i == len(s) {
			l.text = s[start:]
			sc.pos = len(s)
			return l, true
		}
		switch s[i] {
		case ':':
			if l.colon < 0 && l.hash < 0 {
				l.colon = i - start
			}
		case '#':
			// The rest of the line is comment: skip to its end.
			l.hash = i - start
			i = sc.lineEnd(i) - 1
		default: // CR or LF
			l.text, l.terminated = s[start:i], true
			sc.pos = i + 1
			if s[i] == '\r' && sc.pos < len(s) && s[sc.pos] == '\n' {
				sc.pos++
			}
			return l, true
		}
		i++
	}
}

// lineEnd returns the index of the first CR or LF at or after i, or
// len(s).
func (sc *lineScanner) lineEnd(i int) int {
	if sc.nextLF < i {
		sc.nextLF = indexFrom(sc.s, '\n', i)
	}
	if sc.nextCR < i {
		sc.nextCR = indexFrom(sc.s, '\r', i)
	}
	return min(sc.nextLF, sc.nextCR)
}

// indexFrom returns the index of the first c in s at or after from, or
// len(s) when there is none.
func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// nextSpecial returns the index of the first octet at or after i that is
// LF, CR, "#" or ":", or len(s) if there is none.
func nextSpecial(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := load64(s, i)
		if m := equalOctets(w, '\n') | equalOctets(w, '\r') | equalOctets(w, '#') | equalOctets(w, ':'); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '#', ':':
			return i
		}
	}
	return len(s)
}
