package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of identifier splitting.
const (
	// MaxIdentifierBytes is the longest token SplitIdentifier splits; a longer one (a hash, a
	// base64 blob, a long URL) is only kept whole.
	MaxIdentifierBytes = 128
	// MaxIdentifierParts is the most parts SplitIdentifier returns besides the whole token.
	MaxIdentifierParts = 16
	// MaxIdentifiersPerText is the most identifiers Identifiers returns for one text.
	MaxIdentifiersPerText = 4096
)

// identifierConnectors are the characters that join the parts of an identifier inside a token:
// snake_case, a.b.c, --dry-run, Foo::bar, a/b, $var, #id, user@host.
const identifierConnectors = "_.-:/$#@"

// SplitIdentifier returns the tokens under which an identifier is findable (issue 11:
// identifiers "findable whole and by part"): first the whole token, lower-cased, with outer
// punctuation trimmed as the query language trims a term (a leading "--" is kept, and "_"), then
// each run of letters and digits in it, then the CamelCase parts of each run that has any, each
// token once:
//
//	PyObject_GetAttr  ->  pyobject_getattr, pyobject, getattr, py, object, get, attr
//	pg_stat_activity  ->  pg_stat_activity, pg, stat, activity
//	--flag            ->  --flag, flag
//
// A CamelCase boundary is a lower-case letter or digit followed by an upper-case letter, or an
// upper-case letter followed by one that starts a capitalised word (HTTPServer: http, server).
// A plain word gives only itself; a token without letters or digits gives nil. A token longer
// than MaxIdentifierBytes is returned whole only; at most MaxIdentifierParts parts follow it.
//
// The indexer adds these tokens to what its tokenizer finds, so that a query for the whole
// identifier, a part of it, or a CamelCase part matches (the query language keeps an identifier
// whole in Node.Text).
func SplitIdentifier(tok string) []string {
	t := trimOuter(tok)
	if strings.IndexFunc(t, isWordRune) < 0 {
		return nil
	}
	whole := strings.ToLower(t)
	out := []string{whole}
	if len(t) > MaxIdentifierBytes {
		return out
	}
	add := func(s string) {
		s = strings.ToLower(s)
		if s != whole && len(out) < 1+MaxIdentifierParts && !contains(out, s) {
			out = append(out, s)
		}
	}
	segs := strings.FieldsFunc(t, func(r rune) bool { return !isWordRune(r) })
	for _, s := range segs {
		add(s)
	}
	for _, s := range segs {
		if parts := camelParts(s); len(parts) > 1 {
			for _, p := range parts {
				add(p)
			}
		}
	}
	return out
}

// Identifiers returns the identifier-like tokens of text, as written, each once, in order, at
// most MaxIdentifiersPerText: runs of letters, digits and identifierConnectors, trimmed like a
// query term, that have a connector inside, a CamelCase boundary, or a leading "--". Pass each
// to SplitIdentifier.
func Identifiers(text string) []string {
	var out []string
	seen := map[string]bool{}
	eachCandidate(text, func(run string) bool {
		t := trimOuter(run)
		if !isIdentifier(t) || seen[t] {
			return true
		}
		seen[t] = true
		out = append(out, t)
		return len(out) < MaxIdentifiersPerText
	})
	return out
}

// isASCIIWord is isWordRune for ASCII.
func isASCIIWord(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// The classes of ASCII bytes in a run of identifier runes.
const (
	asciiOther     = iota // not in an identifier: a run ends before it
	asciiWord             // a lower-case letter or a digit
	asciiUpper            // an upper-case letter
	asciiConnector        // one of identifierConnectors
)

// asciiClass is the class of each ASCII byte (the rest of the table is unused).
var asciiClass = func() (c [utf8.RuneSelf]uint8) {
	for b := range utf8.RuneSelf {
		switch r := rune(b); {
		case 'A' <= r && r <= 'Z':
			c[b] = asciiUpper
		case isASCIIWord(r):
			c[b] = asciiWord
		case strings.IndexByte(identifierConnectors, byte(b)) >= 0:
			c[b] = asciiConnector
		}
	}
	return c
}()

// eachCandidate calls yield with each maximal run of text's identifier runes that may be an
// identifier, in order, until yield returns false. A run of ASCII letters and digits is decided
// here: trimming leaves it whole and it has no connector, so it is an identifier exactly when
// it has a CamelCase boundary (camelBoundary, on bytes). Every other run (with a connector, or
// not ASCII) is yielded for isIdentifier to decide. Most words of prose are skipped after one
// look at each byte, and Identifiers runs over every page's whole text at indexing time (issue 8).
func eachCandidate(text string, yield func(string) bool) {
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiClass[c] == asciiOther {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRuneInString(text[i:]); !isWordRune(r) {
			i += size
			continue
		}
		start, maybe := i, false
	run:
		for i < len(text) {
			c := text[i]
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(text[i:])
				if !isWordRune(r) {
					break
				}
				maybe = true // not ASCII: decided by isIdentifier
				i += size
				continue
			}
			switch asciiClass[c] {
			case asciiOther:
				break run
			case asciiConnector:
				maybe = true
			case asciiUpper:
				if i > start && !maybe {
					prev := asciiClass[text[i-1]] // ASCII: maybe is set after any other rune
					nextLower := i+1 < len(text) && 'a' <= text[i+1] && text[i+1] <= 'z'
					maybe = prev == asciiWord || prev == asciiUpper && nextLower
				}
			}
			i++
		}
		if maybe && !yield(text[start:i]) {
			return
		}
	}
}

// isIdentifier reports whether a trimmed token is worth splitting: it has a letter or digit, and
// a leading "--", a connector inside, or a CamelCase boundary. It allocates nothing: it runs on
// every word of every indexed page.
func isIdentifier(t string) bool {
	word, other := false, false
	for _, r := range t {
		if isASCIIWord(r) || r >= utf8.RuneSelf && isWordRune(r) {
			word = true
		} else {
			other = true
		}
	}
	if !word {
		return false
	}
	if other || strings.HasPrefix(t, "--") {
		return true
	}
	return hasCamelBoundary(t)
}

// hasCamelBoundary reports whether camelParts would split s (len(camelParts(s)) > 1), without
// building the parts.
func hasCamelBoundary(s string) bool {
	var prev, cur rune
	n := 0 // runes read before next; cur is rune n-1, prev rune n-2
	for _, next := range s {
		if n >= 2 && camelBoundary(prev, cur, next, true) {
			return true
		}
		prev, cur = cur, next
		n++
	}
	return n >= 2 && camelBoundary(prev, cur, 0, false)
}

// camelBoundary reports whether a CamelCase part starts at r, the rune after prev; next is the
// rune after r when hasNext. It is camelParts' rule, the one place that states it.
func camelBoundary(prev, r, next rune, hasNext bool) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	lowerBefore := unicode.IsLower(prev) || unicode.IsDigit(prev)
	wordStarts := unicode.IsUpper(prev) && hasNext && unicode.IsLower(next)
	return lowerBefore || wordStarts
}

// camelParts splits a run of letters and digits at its CamelCase boundaries.
func camelParts(s string) []string {
	rs := []rune(s)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		next, hasNext := rune(0), i+1 < len(rs)
		if hasNext {
			next = rs[i+1]
		}
		if camelBoundary(rs[i-1], rs[i], next, hasNext) {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}

// IdentifierParts is what a store indexes, at WeightIdentifierParts, to make the identifiers of
// an entry's texts findable by part (issue 11): the CamelCase parts of their identifiers,
// lower-cased, each once, separated by spaces (PyObject_GetAttr gives "py object get attr").
// The rest of SplitIdentifier's tokens need no column of their own: a tokenizer that splits at
// punctuation finds the snake_case, dotted and flag parts in the text itself, and the whole
// identifier as those words in a row.
func IdentifierParts(texts ...string) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, t := range texts {
		for _, id := range Identifiers(t) {
			if len(id) > MaxIdentifierBytes {
				continue
			}
			for _, seg := range strings.FieldsFunc(id, func(r rune) bool { return !isWordRune(r) }) {
				parts := camelParts(seg)
				if len(parts) < 2 {
					continue
				}
				for _, p := range parts {
					p = strings.ToLower(p)
					if !seen[p] {
						seen[p] = true
						b.WriteString(p)
						b.WriteByte(' ')
					}
				}
			}
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}
