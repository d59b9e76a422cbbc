package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceWrite is textBuf.write as it was before ASCII runs took their
// single spaces along (issue 26, CPU per page): one put per word. The
// whitespace rules and the cap (issue 11's clean text, Options' limits) are
// defined by it, and the faster write must give the same text and the same
// full flag for every input.
func referenceWrite(t *textBuf, p []byte) {
	for i := 0; i < len(p) && !t.full; {
		c := p[i]
		switch {
		case c == 0:
			i++
		case isCollapsible(c):
			t.space = true
			i++
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(p) && p[j] > ' ' && p[j] < 0x7f {
				j++
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

// A cap falling just after a space inside a run must not leave that space
// at the end: the word after it did not fit, so neither does its separator.
func TestTextBufCapAfterSpaceInRun(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"foo bar", 4, "foo"},
		{"foo bar", 5, "foo b"},
		{"foo bar", 3, "foo"},
		{"foo bar baz", 8, "foo bar"},
		{"a b c", 2, "a"},
	} {
		b := textBuf{max: tc.max}
		b.write([]byte(tc.in))
		if got := b.String(); got != tc.want || !b.full {
			t.Errorf("write(%q) with max %d: got %q full=%v, want %q full=true", tc.in, tc.max, got, b.full, tc.want)
		}
	}
}

// Issue 26: write's single-space runs are an optimisation only. Random text
// of words, spaces, other whitespace, NUL, non-ASCII, invalid bytes and
// no-break spaces, written in pieces with word boundaries between some and
// under random caps, gives exactly what referenceWrite gives.
func TestTextBufWriteMatchesReference(t *testing.T) {
	pieces := []string{"a", "bc", "def", " ", " ", "  ", "\n", "\t", "\x00", "\x7f", "é", "\xff", "\u00a0", "\u2003", ".", "x y"}
	rng := rand.New(rand.NewPCG(26, 1))
	for n := range 20000 {
		var chunks []string
		for range 1 + rng.IntN(6) {
			var s strings.Builder
			for range rng.IntN(12) {
				s.WriteString(pieces[rng.IntN(len(pieces))])
			}
			chunks = append(chunks, s.String())
		}
		max := rng.IntN(40)
		got, want := textBuf{max: max}, textBuf{max: max}
		for i, c := range chunks {
			if i > 0 && rng.IntN(2) == 0 {
				got.brk()
				want.brk()
			}
			got.write([]byte(c))
			referenceWrite(&want, []byte(c))
		}
		// A full buffer takes nothing more, so its pending separator is
		// unobservable; before that it must match too.
		if got.String() != want.String() || got.full != want.full || !got.full && got.space != want.space {
			t.Fatalf("case %d, max %d, chunks %q: got %q full=%v space=%v, reference %q full=%v space=%v",
				n, max, chunks, got.String(), got.full, got.space, want.String(), want.full, want.space)
		}
	}
}
