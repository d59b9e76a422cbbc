package postgres

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// searchWords is what the full-text index sees of a text: lower-cased, diacritics removed, and
// every character that is not a letter or a digit made a space, so that PostgreSQL's parser (of
// tsConfig: no stop words, English stemming) finds the words FTS5's unicode61
// tokenizer finds in the SQLite store, and nothing else (no host names, e-mail addresses or
// file paths as single tokens). Query terms (index.Terms) go through the same function.
func searchWords(s string) string {
	if !isPlainASCII(s) {
		folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
		if err == nil {
			s = folded
		}
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// urlWords makes the words of a URL searchable: host labels and path segments, without the scheme.
func urlWords(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	return searchWords(u)
}

// noControls replaces C0 and C1 control characters with spaces: page text must never carry the
// snippet markers, nor terminal escape sequences into `mandelbot search` output.
func noControls(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }
