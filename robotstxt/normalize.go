package robotstxt

import "strings"

// This file implements the one normalisation that patterns and match
// targets share (docs/robots-rules.md rule 13, RFC 9309 §2.2.2):
//
//   - octets outside US-ASCII, space, and the other control octets
//     (0x00-0x20, 0x7F-0xFF) are percent-encoded;
//   - the hex digits of a %XX escape are upper-cased;
//   - an escape of an unreserved character (A-Z a-z 0-9 - . _ ~) is decoded;
//   - an escape of any other character is kept, so %2F is not "/";
//   - a "%" that does not start a valid escape is the literal percent sign
//     and becomes %25.
//
// Two forms are produced. The display form (Rule.Pattern) keeps %2A and %24:
// in a pattern they are the literal characters "*" and "$" and must stay
// distinguishable from the wildcard and the end anchor (rule 13, RFC 9309
// §2.2.3). The match form, used for match targets and for the literal
// segments of a compiled pattern, also decodes %2A and %24, so a literal "*"
// is the octet "*" on both sides and a URL containing "*" or "%2A" is matched
// by a pattern's %2A.

const upperHex = "0123456789ABCDEF"

// Octet classes for normalisation.
const (
	octetKeep    = iota // copied as is
	octetEscape         // percent-encoded
	octetPercent        // "%": starts an escape, or is a literal percent
)

// octetClass classifies every octet; it is computed once and never written.
var octetClass = func() (t [256]uint8) {
	for b := range 256 {
		switch {
		case b <= 0x20 || b >= 0x7F:
			t[b] = octetEscape
		case b == '%':
			t[b] = octetPercent
		}
	}
	return t
}()

// unhex returns the value of the hex digit c and whether c is one.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// isUnreserved reports whether c is an unreserved URI character (RFC 3986
// §2.3), whose escape is decoded by normalisation.
func isUnreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// decodes reports whether normalisation writes the escape of c as c itself:
// always for unreserved characters, and for "*" and "$" in the match form.
func decodes(c byte, match bool) bool {
	return isUnreserved(c) || match && (c == '*' || c == '$')
}

// escapeAt reports whether s[i] (a "%") starts a valid escape and returns the
// escaped octet.
func escapeAt(s string, i int) (byte, bool) {
	if i+2 >= len(s) {
		return 0, false
	}
	hi, ok1 := unhex(s[i+1])
	lo, ok2 := unhex(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

// plainPrefix returns a length p, a multiple of 8, such that s[:p] holds
// only printable ASCII other than "%": octets normalisation copies as
// they are. It reads s eight octets at a time.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s) && plainWord(load64(s, i)); i += 8 {
	}
	return i
}

// isPlain reports whether s holds only printable ASCII other than "%",
// which normalisation leaves as it is. The octets past the last whole
// word are checked by reading the last eight octets again.
func isPlain(s string) bool {
	p := plainPrefix(s)
	switch {
	case p == len(s):
		return true
	case len(s) >= 8 && len(s)-p < 8:
		return plainWord(load64(s, len(s)-8))
	case len(s) < 8:
		w := uint64(0x6161616161616161) // "aaaaaaaa"
		for i := 0; i < len(s); i++ {
			w = w&^(0xFF<<(8*i)) | uint64(s[i])<<(8*i)
		}
		return plainWord(w)
	}
	return false
}

// plainWord reports whether every octet of w is printable ASCII other
// than "%".
func plainWord(w uint64) bool {
	return belowOctets(w, 0x21)|equalOctets(w, 0x7F)|equalOctets(w, '%') == 0
}

// normalizedLen returns the length of the normalised form of s and whether
// that form is s itself.
func normalizedLen(s string, match bool) (n int, same bool) {
	same = true
	n = plainPrefix(s)
	for i := n; i < len(s); i++ {
		switch octetClass[s[i]] {
		case octetKeep:
			n++
		case octetEscape:
			n += 3
			same = false
		case octetPercent:
			v, ok := escapeAt(s, i)
			switch {
			case !ok:
				n += 3 // "%25"
				same = false
			case decodes(v, match):
				n++
				i += 2
				same = false
			default:
				n += 3
				if s[i+1] != upperHex[v>>4] || s[i+2] != upperHex[v&15] {
					same = false
				}
				i += 2
			}
		}
	}
	return n, same
}

// appendNormalized appends the normalised form of s to dst and returns the
// extended slice.
func appendNormalized(dst []byte, s string, match bool) []byte {
	p := plainPrefix(s)
	dst = append(dst, s[:p]...)
	for i := p; i < len(s); i++ {
		b := s[i]
		switch octetClass[b] {
		case octetKeep:
			dst = append(dst, b)
		case octetEscape:
			dst = append(dst, '%', upperHex[b>>4], upperHex[b&15])
		case octetPercent:
			v, ok := escapeAt(s, i)
			switch {
			case !ok:
				dst = append(dst, '%', '2', '5')
			case decodes(v, match):
				dst = append(dst, v)
				i += 2
			default:
				dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
				i += 2
			}
		}
	}
	return dst
}

// normalizePattern returns the display form of a rule's value. It returns
// value itself, without allocating, when value is already normalised.
func normalizePattern(value string) string {
	if isPlain(value) {
		return value
	}
	n, same := normalizedLen(value, false)
	if same {
		return value
	}
	return string(appendNormalized(make([]byte, 0, n), value, false))
}

// literalToMatch converts a literal segment of a display-form pattern (one
// without wildcards or anchor) to the match form: %2A becomes "*" and %24
// becomes "$". Every "%" of a display form starts a canonical escape, so a
// plain substring search cannot misfire.
func literalToMatch(seg string) string {
	if strings.IndexByte(seg, '%') < 0 {
		return seg
	}
	n, same := normalizedLen(seg, true)
	if same {
		return seg
	}
	return string(appendNormalized(make([]byte, 0, n), seg, true))
}
