package sitemap

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// field trims ASCII whitespace at both ends of a value given in pieces, and
// tells a value over max from one that fits once trimmed.
func TestField(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		max    int
		want   string
		long   bool
		empty  bool
	}{
		{[]string{"abc"}, 3, "abc", false, false},
		{[]string{"abcd"}, 3, "", true, false},
		{[]string{"  ", " a", "b ", " c  ", "  "}, 10, "ab  c", false, false},
		{[]string{"   ab   ", "     "}, 2, "ab", false, false},      // trailing space past max is not content
		{[]string{"ab", "     ", "     ", "c"}, 5, "", true, false}, // but becomes content if more follows
		{[]string{"a", "\t\n\r\f "}, 1, "a", false, false},
		{[]string{"", " \n ", ""}, 1, "", false, true},
		{[]string{"\u00a0"}, 2, "\u00a0", false, false}, // NBSP is not ASCII whitespace
		{[]string{strings.Repeat("x", 100), "y"}, 100, "", true, false},
	} {
		f := field{max: tc.max}
		for _, p := range tc.pieces {
			f.add([]byte(p))
		}
		if f.value() != tc.want || f.tooLong() != tc.long || f.empty() != tc.empty {
			t.Errorf("%q max %d: value %q tooLong %v empty %v; want %q %v %v",
				tc.pieces, tc.max, f.value(), f.tooLong(), f.empty(), tc.want, tc.long, tc.empty)
		}
		f.reset()
		if !f.empty() || f.tooLong() || f.value() != "" {
			t.Errorf("%q: reset left %+v", tc.pieces, f)
		}
	}
}

// The field holds at most max bytes plus one piece's trailing whitespace,
// whatever it is given.
func TestFieldBounded(t *testing.T) {
	f := field{max: 10}
	f.add([]byte("0123456789"))
	for range 1000 {
		f.add(bytes.Repeat([]byte(" "), 100))
	}
	if cap(f.buf) > 64 || f.value() != "0123456789" {
		t.Errorf("buffer grew to %d bytes, value %q", cap(f.buf), f.value())
	}
}

// decodedLimit tells a document of exactly the limit (io.EOF) from a longer
// one (errDecodedLimit) without passing more than the limit.
func TestDecodedLimit(t *testing.T) {
	for _, tc := range []struct {
		input string
		limit int64
		want  string
		err   error
	}{
		{"hello", 5, "hello", nil},
		{"hello", 6, "hello", nil},
		{"hello!", 5, "hello", errDecodedLimit},
		{"", 1, "", nil},
	} {
		l := &decodedLimit{r: iotest.HalfReader(strings.NewReader(tc.input)), left: tc.limit}
		got, err := io.ReadAll(l)
		if string(got) != tc.want || !errors.Is(err, tc.err) || l.exceeded != (tc.err != nil) {
			t.Errorf("%q limit %d: %q, %v, exceeded %v; want %q, %v", tc.input, tc.limit, got, err, l.exceeded, tc.want, tc.err)
		}
	}
}

// sourceReader remembers the caller's first real error, not io.EOF.
func TestSourceReader(t *testing.T) {
	s := &sourceReader{r: strings.NewReader("abc")}
	if _, err := io.ReadAll(s); err != nil || s.err != nil {
		t.Errorf("clean input: %v, recorded %v", err, s.err)
	}
	boom := errors.New("boom")
	s = &sourceReader{r: iotest.ErrReader(boom)}
	io.ReadAll(s)
	if s.err != boom {
		t.Errorf("recorded %v, want %v", s.err, boom)
	}
}

// latin1Reader converts ISO-8859-1 to UTF-8 exactly, even when the caller's
// buffer splits a two-byte character.
func TestLatin1Reader(t *testing.T) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	var want strings.Builder
	for c := range 256 {
		want.WriteRune(rune(c))
	}
	for _, size := range []int{1, 2, 3, 7, 512} {
		r := &latin1Reader{r: bytes.NewReader(all)}
		var got []byte
		buf := make([]byte, size)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != want.String() {
			t.Errorf("buffer %d: got %q", size, got)
		}
	}
}

// tokenGuard hands out at most max+1 bytes past the marked token start.
func TestTokenGuard(t *testing.T) {
	g := &tokenGuard{src: bufioOf("abcdefghij"), max: 3}
	var got []byte
	for {
		c, err := g.ReadByte()
		if err != nil {
			if !errors.Is(err, errTokenLimit) {
				t.Fatalf("error %v, want errTokenLimit", err)
			}
			break
		}
		got = append(got, c)
	}
	if string(got) != "abcd" {
		t.Errorf("handed out %q before the cut, want \"abcd\"", got)
	}
	g.markToken(3) // a new token starting at "d"
	c, err := g.ReadByte()
	if err != nil || c != 'e' {
		t.Errorf("after markToken: %q, %v; want 'e'", c, err)
	}
	buf := make([]byte, 10)
	n, _ := g.Read(buf)
	if string(buf[:n]) != "fg" {
		t.Errorf("Read handed out %q, want \"fg\" (4 bytes from the mark)", buf[:n])
	}
}
