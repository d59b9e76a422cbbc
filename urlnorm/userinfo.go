package urlnorm

import "strings"

// cutUserInfo removes the user info ("user:password@") from the authority of
// s, finding the authority exactly where the WHATWG parser will: after the
// scheme and any run of "/" or "\" for an absolute URL; after two of them for
// a reference parsed against a base (relative); nowhere otherwise. The
// authority ends at the first "/", "\", "?" or "#"; its user info is
// everything up to its last "@". Tabs and newlines are skipped as the parser
// skips them.
//
// The canonical form drops user info anyway; cutting it before parsing also
// spares the WHATWG parser its quadratic handling of a long user info (a
// hostile 8 KiB one costs ~90 ms). ok is false when the authority has user
// info but no host after it, which the parser would refuse as well.
func cutUserInfo(s string, sc schemeScan, relative bool) (out string, ok bool) {
	if strings.IndexByte(s, '@') < 0 {
		return s, true
	}
	i := sc.rest
	if sc.kind == schemeNone {
		for i < len(s) && s[i] <= ' ' {
			i++
		}
	}
	if relative {
		// Two slashes (either kind) must start an authority.
		n := 0
		for ; i < len(s) && n < 2; i++ {
			switch c := s[i]; {
			case isTabOrNewline(c):
			case c == '/' || c == '\\':
				n++
			default:
				return s, true // a path, query or fragment: no authority
			}
		}
		if n < 2 {
			return s, true
		}
	}
	for i < len(s) && (s[i] == '/' || s[i] == '\\' || isTabOrNewline(s[i])) {
		i++
	}
	start := i
	at := -1
	for ; i < len(s); i++ {
		c := s[i]
		if c == '/' || c == '\\' || c == '?' || c == '#' {
			break
		}
		if c == '@' {
			at = i
		}
	}
	if at < 0 {
		return s, true
	}
	if isBlankHost(s[at+1:i], i == len(s)) {
		return s, false
	}
	return s[:start] + s[at+1:], true
}

// isBlankHost reports whether what follows the last "@" is empty once the
// parser has removed tabs and newlines and, at the end of the input, trailing
// spaces and control characters.
func isBlankHost(h string, atEnd bool) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if isTabOrNewline(c) || atEnd && c <= ' ' {
			continue
		}
		return false
	}
	return true
}
