package web

// trimASCII removes ASCII spaces, tabs, CR and LF at both ends of s. Protocol text (robots.txt
// lines, URL lists, agents) is trimmed this way, never with the Unicode-aware strings.TrimSpace.
func trimASCII(s string) string {
	for len(s) > 0 && isASCIISpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isASCIISpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}
