package index

import (
	"strings"
	"unicode"
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
	runs := strings.FieldsFunc(text, func(r rune) bool {
		return !isWordRune(r) && !strings.ContainsRune(identifierConnectors, r)
	})
	for _, run := range runs {
		t := trimOuter(run)
		if seen[t] || !isIdentifier(t) {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == MaxIdentifiersPerText {
			break
		}
	}
	return out
}

// isIdentifier reports whether a trimmed token is worth splitting.
func isIdentifier(t string) bool {
	if strings.IndexFunc(t, isWordRune) < 0 {
		return false
	}
	if strings.HasPrefix(t, "--") || strings.IndexFunc(t, func(r rune) bool { return !isWordRune(r) }) >= 0 {
		return true
	}
	return len(camelParts(t)) > 1
}

// camelParts splits a run of letters and digits at its CamelCase boundaries.
func camelParts(s string) []string {
	rs := []rune(s)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, r := rs[i-1], rs[i]
		if !unicode.IsUpper(r) {
			continue
		}
		lowerBefore := unicode.IsLower(prev) || unicode.IsDigit(prev)
		wordStarts := unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if lowerBefore || wordStarts {
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
