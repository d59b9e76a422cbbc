package robotstxt

// This file holds the ASCII-only text helpers. robots.txt is protocol text:
// the standard library's strings.EqualFold, ToLower and TrimSpace follow
// Unicode rules (the Kelvin sign folds to "k", NBSP is trimmed), which the
// spec does not allow (docs/robots-rules.md rules 2 and 6).

// isBlank reports whether b is whitespace that robots.txt ignores around
// elements: space or horizontal tab (rule 2).
func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// trimBlank returns s without leading and trailing spaces and tabs.
// The result shares memory with s.
func trimBlank(s string) string {
	i, j := 0, len(s)
	for i < j && isBlank(s[i]) {
		i++
	}
	for j > i && isBlank(s[j-1]) {
		j--
	}
	return s[i:j]
}

// lowerByte folds an ASCII upper-case letter to lower case and returns any
// other octet unchanged.
func lowerByte(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}

// equalFold reports whether a and b are equal under ASCII case folding.
// Octets outside A-Z and a-z must match exactly.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// lowerASCII returns s with A-Z folded to a-z. It returns s itself (no
// allocation) when s has no upper-case ASCII letter.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		b[i] = lowerByte(b[i])
	}
	return string(b)
}
