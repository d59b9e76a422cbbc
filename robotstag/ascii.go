package robotstag

// The robot-tag protocol text (attribute names, directive names, agent
// tokens, media types) is ASCII. strings.EqualFold, ToLower and TrimSpace
// apply Unicode rules (the Kelvin sign U+212A folds to "k", U+00A0 is
// trimmed), so this package uses the small ASCII-only helpers below.

// isSpace reports whether c is ASCII whitespace as HTML and HTTP use it:
// space, tab, LF, VT, FF, CR.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// trimSpace returns s without leading and trailing ASCII whitespace.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// lowerByte folds an ASCII upper-case letter to lower case; other bytes are
// returned unchanged.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// equalFold reports whether a and b are equal under ASCII case folding.
// Non-ASCII bytes must match exactly.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// toLower returns s with ASCII upper-case letters folded to lower case.
// It does not allocate when s has no upper-case ASCII letter.
func toLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerByte(b[j])
			}
			return string(b)
		}
	}
	return s
}

// isTokenChar reports whether c may appear in an HTTP token (RFC 9110
// section 5.6.2 tchar), the syntax of a product token such as "Mandelbot".
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// isScopeName reports whether s may be the agent of an "agent:" scope in
// an X-Robots-Tag value: a non-empty HTTP token, or one with a "/version"
// as a User-Agent product carries ("mandelbot/2.1"). Which agent it names
// is its robotstxt.AgentToken.
func isScopeName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenChar(s[i]) && s[i] != '/' {
			return false
		}
	}
	return true
}
