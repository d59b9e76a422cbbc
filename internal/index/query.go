package index

import (
	"errors"
	"unicode"
	"unicode/utf8"
)

// ErrEmptyQuery reports a query with no searchable word.
var ErrEmptyQuery = errors.New("the query has no word to search for")

// Terms splits a query into the words to search for: runs of letters and digits, lower-cased,
// at most MaxQueryTerms of them, from at most MaxQueryBytes of input. Everything else
// (punctuation, operators, quotes) separates words, so user input can never reach a full-text
// engine's query syntax.
func Terms(text string) ([]string, error) {
	if len(text) > MaxQueryBytes {
		text = text[:MaxQueryBytes]
		for len(text) > 0 && !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	var terms []string
	seen := map[string]bool{}
	word := make([]rune, 0, 32)
	flush := func() {
		if len(word) > 0 && len(terms) < MaxQueryTerms {
			w := string(word)
			if !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
		}
		word = word[:0]
	}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = append(word, unicode.ToLower(r))
			continue
		}
		flush()
	}
	flush()
	if len(terms) == 0 {
		return nil, ErrEmptyQuery
	}
	return terms, nil
}

// Clamp returns q with Limit and Offset inside their bounds.
func (q Query) Clamp() Query {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = max(0, min(q.Offset, MaxOffset))
	return q
}
