package extract

import "strings"

// Protocol text in HTML (rel tokens, http-equiv names, language tags, the
// spaces around an href) is ASCII. strings.EqualFold, ToLower and
// TrimSpace apply Unicode rules (U+212A KELVIN SIGN folds to "k", U+00A0
// is trimmed), so this package uses the ASCII-only helpers below.

// isHTMLSpace reports whether c is ASCII whitespace as HTML defines it:
// tab, LF, FF, CR and space.
func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// trimHTMLSpace returns s without leading and trailing ASCII whitespace.
func trimHTMLSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isHTMLSpace(s[i]) {
		i++
	}
	for j > i && isHTMLSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// cleanHref prepares an href as the URL parser does before parsing: leading
// and trailing C0 controls and spaces are removed, and so are tabs and
// newlines anywhere (WHATWG URL, "basic URL parser", first steps).
func cleanHref(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	s = s[i:j]
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// lowerByte folds an ASCII upper-case letter to lower case.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// equalFold reports whether a and b are equal under ASCII case folding.
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

// hasToken reports whether the space-separated token list list (a rel
// attribute) contains tok, compared with ASCII case folding.
func hasToken(list, tok string) bool {
	for list != "" {
		i := 0
		for i < len(list) && isHTMLSpace(list[i]) {
			i++
		}
		list = list[i:]
		j := 0
		for j < len(list) && !isHTMLSpace(list[j]) {
			j++
		}
		if j > 0 && equalFold(list[:j], tok) {
			return true
		}
		list = list[j:]
	}
	return false
}

// langTag returns s trimmed if it looks like a language tag (ASCII
// letters, digits, '-' and '_', as in "en", "pt-BR" or the common
// misspelling "en_US"), else "".
func langTag(s string) string {
	s = trimHTMLSpace(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return ""
		}
	}
	return s
}
