package urlnorm

// schemeKind classifies the scheme of an input before it is parsed.
type schemeKind uint8

const (
	schemeNone  schemeKind = iota // no scheme: a relative reference
	schemeHTTP                    // "http:"
	schemeHTTPS                   // "https:"
	schemeOther                   // any other scheme
)

// maxSchemeName is how much of an unwanted scheme's name is kept for the
// error message.
const maxSchemeName = 32

// schemeScan is what scanScheme found.
type schemeScan struct {
	kind schemeKind
	// name is the lower-cased scheme, set only for schemeOther (for the
	// error message), cut to maxSchemeName bytes.
	name string
	// slashSlash reports that the scheme's colon is followed by "//".
	slashSlash bool
	// rest is the index just after the scheme's colon; 0 for schemeNone.
	rest int
}

// scanScheme finds the scheme of s exactly as the WHATWG parser will: leading
// C0 controls and spaces are skipped, tabs and newlines are ignored anywhere,
// a scheme is an ASCII letter followed by letters, digits, "+", "-" or ".",
// ended by ":" (so "  JavaScript:x" and "java\tscript:x" are both
// javascript). It does not allocate unless the scheme is an unwanted one.
func scanScheme(s string) schemeScan {
	i := 0
	for i < len(s) && s[i] <= ' ' {
		i++
	}
	// Compare against "http" / "https" while scanning, so the common case
	// needs no buffer.
	const want = "https"
	n := 0          // scheme bytes seen
	matches := true // the scheme so far is a prefix of "https"
	start := i
	for ; i < len(s); i++ {
		c := s[i]
		if isTabOrNewline(c) {
			continue
		}
		if c == ':' {
			break
		}
		if n == 0 && !isASCIIAlpha(c) || n > 0 && !isSchemeByte(c) {
			return schemeScan{kind: schemeNone}
		}
		if matches && (n >= len(want) || asciiLower(c) != want[n]) {
			matches = false
		}
		n++
	}
	if i == len(s) || n == 0 {
		return schemeScan{kind: schemeNone}
	}
	colon := i
	r := schemeScan{rest: colon + 1}
	switch {
	case matches && n == 4:
		r.kind = schemeHTTP
	case matches && n == 5:
		r.kind = schemeHTTPS
	default:
		return schemeScan{kind: schemeOther, name: schemeName(s[start:colon])}
	}
	// Look for "//" after the colon, ignoring tabs and newlines.
	slashes := 0
	for i = colon + 1; i < len(s) && slashes < 2; i++ {
		c := s[i]
		if isTabOrNewline(c) {
			continue
		}
		if c != '/' {
			break
		}
		slashes++
	}
	r.slashSlash = slashes == 2
	return r
}

// schemeName lower-cases a scheme, dropping tabs and newlines, for messages.
func schemeName(s string) string {
	b := make([]byte, 0, min(len(s), maxSchemeName))
	for i := 0; i < len(s) && len(b) < maxSchemeName; i++ {
		if !isTabOrNewline(s[i]) {
			b = append(b, asciiLower(s[i]))
		}
	}
	return string(b)
}

func isTabOrNewline(c byte) bool { return c == '\t' || c == '\n' || c == '\r' }

func isASCIIAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSchemeByte(c byte) bool {
	return isASCIIAlpha(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// asciiLower folds A-Z only; protocol text is never Unicode-folded.
func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}
