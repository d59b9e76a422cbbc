package robotstxt

// Word-at-a-time helpers ("SIMD within a register"): eight octets of a
// string are read as one little-endian word and tested together. The
// tests are the classic has-zero and has-less tricks; for a word that has
// a qualifying octet, the lowest flagged octet is always the first one that
// qualifies (flags above it may be spurious), so they also find positions.

const (
	onesWord  = 0x0101010101010101 // 0x01 in every octet
	highsWord = 0x8080808080808080 // 0x80 in every octet
)

// load64 returns s[i:i+8] as a little-endian word; the caller ensures
// i+8 <= len(s). The compiler turns it into one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// zeroOctets flags (with 0x80) the octets of w that are zero; see above for
// which flags are exact.
func zeroOctets(w uint64) uint64 { return (w - onesWord) &^ w & highsWord }

// equalOctets flags the octets of w equal to c.
func equalOctets(w uint64, c byte) uint64 { return zeroOctets(w ^ onesWord*uint64(c)) }

// belowOctets flags the octets of w below c (c <= 0x80) and those with the
// high bit set.
func belowOctets(w uint64, c byte) uint64 { return ((w-onesWord*uint64(c))&^w | w) & highsWord }
