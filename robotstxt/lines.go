package robotstxt

import "strings"

// lineReader splits text into lines ending at CR, LF or CRLF, in any mix
// (robots-semantics.md rule 1). Unlike bufio.Scanner it has no line length
// limit and splits on a lone CR. It runs in linear time: the positions of
// the next CR and the next LF are each searched for once per occurrence.
// The zero value is not ready; use newLineReader.
type lineReader struct {
	s      string
	pos    int // start of the next line
	nextLF int // index of the next LF at or after pos, len(s) if none, -1 if unknown
	nextCR int // the same for CR
}

func newLineReader(s string) lineReader {
	return lineReader{s: s, nextLF: -1, nextCR: -1}
}

// next returns the next line without its terminator, and whether a
// terminator followed it. ok is false when the text is exhausted; a
// terminator at the very end does not start another line.
func (r *lineReader) next() (line string, terminated, ok bool) {
	if r.pos >= len(r.s) {
		return "", false, false
	}
	if r.nextLF < r.pos {
		r.nextLF = indexFrom(r.s, '\n', r.pos)
	}
	if r.nextCR < r.pos {
		r.nextCR = indexFrom(r.s, '\r', r.pos)
	}
	end := min(r.nextLF, r.nextCR)
	line = r.s[r.pos:end]
	if end == len(r.s) {
		r.pos = end
		return line, false, true
	}
	r.pos = end + 1
	if r.s[end] == '\r' && r.pos < len(r.s) && r.s[r.pos] == '\n' {
		r.pos++
	}
	return line, true, true
}

// indexFrom returns the index of the first c in s at or after from, or
// len(s) when there is none.
func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}
