package sitemap

// ASCII-only helpers. The protocol text around a URL is trimmed of ASCII
// whitespace only: bytes.TrimSpace would also strip U+0085 and U+00A0, which
// are part of the value as far as the protocol is concerned.

// isSpace reports whether c is ASCII whitespace as WHATWG defines it: tab,
// line feed, form feed, carriage return or space. (XML's own whitespace is
// the same set without form feed, which XML 1.0 does not allow at all.)
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// trimLeft returns b without leading ASCII whitespace.
func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// trimRight returns b without trailing ASCII whitespace.
func trimRight(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// asciiEqualFold reports whether s and t are equal under ASCII case folding
// only (strings.EqualFold would also fold, say, the Kelvin sign to k).
func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], t[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}
