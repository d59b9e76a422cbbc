package main

// isProductToken reports whether s is a usable robots.txt product token: printable ASCII, no
// spaces or slashes.
func isProductToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '/' {
			return false
		}
	}
	return true
}
