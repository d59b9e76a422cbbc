package index

import (
	"strings"
	"unicode"
)

// MinDefinedBytes is the shortest spelling (letters and digits) of an identifier that the
// definition rule matches (ranking.go, DefinesBoost): shorter ones ("id", "io") name too much.
const MinDefinedBytes = 4

// definesQuery reports whether headings (an entry's headings: h1-h6 and the terms of its
// definition lists, Result.Headings) hold an identifier that the query's words name: an
// identifier (a CamelCase, snake_case, dotted or flag token, see Identifiers) whose letters and
// digits, lower-cased, are the words of terms written together, in order ("document root" names
// DocumentRoot, "mod rewrite" and "mod_rewrite" name mod_rewrite, "keepalive" names KeepAlive).
// Plurals are not folded: "virtual hosts" does not name VirtualHost. A query that spells fewer
// than MinDefinedBytes letters and digits names nothing.
func definesQuery(headings string, terms []string) bool {
	want := joinedWords(terms...)
	if len(want) < MinDefinedBytes || headings == "" {
		return false
	}
	found := false
	eachCandidate(headings, func(run string) bool {
		t := trimOuter(run)
		found = isIdentifier(t) && len(t) >= len(want) && joinedWords(t) == want
		return !found
	})
	return found
}

// joinedWords is the letters and digits of ss, lower-cased, in order, with nothing between.
func joinedWords(ss ...string) string {
	var b strings.Builder
	for _, s := range ss {
		for _, r := range s {
			if isWordRune(r) {
				b.WriteRune(unicode.ToLower(r))
			}
		}
	}
	return b.String()
}
