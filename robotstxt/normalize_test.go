package robotstxt

import (
	"math/rand/v2"
	"testing"
)

// docs/robots-rules.md rule 13: the fast path of Test skips normalisation
// only for targets that normalisation would not change. isMatchForm must
// say so exactly, whatever the octet and its position in an 8-octet word.
func TestRule13_FastPathOnlyForNormalisedTargets(t *testing.T) {
	check := func(s string) {
		t.Helper()
		n, same := normalizedLen(s, true)
		want := s != "" && s[0] != '?' && same && n == len(s)
		if got := isMatchForm(s); got != want {
			t.Fatalf("isMatchForm(%q) = %v, want %v", s, got, want)
		}
	}
	// Every octet at every position of a 17-octet path.
	for b := range 256 {
		for pos := 1; pos < 17; pos++ {
			buf := []byte("/abcdefghijklmnop")
			buf[pos] = byte(b)
			check(string(buf))
		}
	}
	// Escapes, valid or not, straddling word boundaries.
	for _, esc := range []string{"%2F", "%2f", "%41", "%2A", "%24", "%7E", "%C3", "%ZZ", "%", "%2"} {
		for pos := 1; pos < 12; pos++ {
			check("/abcdefghijk"[:pos] + esc + "/tail-of-it")
			check("/abcdefghijk"[:pos] + esc)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("/aZ09%2AF?*$~ -\x00\x7f\x80\xff\x20\x21\x7e")
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
}

// docs/robots-rules.md rule 13: the display form of a pattern.
func TestRule13_PatternDisplayForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/a", "/a"},
		{"/%7e%7E", "/~~"},
		{"/%2a%24", "/%2A%24"},
		{"/%e2%82%ac", "/%E2%82%AC"},
		{"/\u20ac", "/%E2%82%AC"},
		{"/50%", "/50%25"},
		{"/%g1", "/%25g1"},
		{"/a b\tc", "/a%20b%09c"},
		{"/*$", "/*$"},
	} {
		if got := normalizePattern(tc.in); got != tc.want {
			t.Errorf("normalizePattern(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// isPlain is exact for every octet at every position of short and long
// strings (the tail of a string is read as an overlapping or padded word).
func TestIsPlainIsExact(t *testing.T) {
	for n := 1; n <= 20; n++ {
		for pos := range n {
			for b := range 256 {
				buf := []byte("/abcdefghijklmnopqrst"[:n])
				buf[pos] = byte(b)
				want := true
				for _, c := range buf {
					if c <= 0x20 || c >= 0x7F || c == '%' {
						want = false
					}
				}
				if got := isPlain(string(buf)); got != want {
					t.Fatalf("isPlain(%q) = %v, want %v", buf, got, want)
				}
			}
		}
	}
	if !isPlain("") {
		t.Error(`isPlain("") = false`)
	}
}
