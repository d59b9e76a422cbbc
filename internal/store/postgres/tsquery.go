package postgres

import (
	"fmt"
	"strings"

	"github.com/fractle/mandelbot/internal/index"
)

// tsQuery renders a parsed query (the query language, index/querylang.go) as the input of
// to_tsquery(tsConfig, ...): every word goes through searchWords, as indexed text does, and is
// quoted as a lexeme, so user input never reaches tsquery syntax. A term of several words (an
// identifier such as pg_stat_activity, which the index holds as its words) and a phrase are
// words joined by <-> (next to each other); a prefix is its last word with :*; OR is |; an
// exclusion is & !(...). site: filters are the caller's (urls.origin). A node whose words
// searchWords removes entirely (none today: query words are letters and digits) is an error.
func tsQuery(p index.Parsed) (string, error) {
	if p.Empty() {
		return "", index.ErrEmptyQuery
	}
	var parts []string
	for _, n := range p.Must {
		s, err := tsNode(n)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	for _, n := range p.Not {
		s, err := tsNode(n)
		if err != nil {
			return "", err
		}
		parts = append(parts, "!("+s+")")
	}
	return strings.Join(parts, " & "), nil
}

func tsNode(n index.Node) (string, error) {
	switch n.Kind {
	case index.KindOr:
		kids := make([]string, len(n.Kids))
		for i, k := range n.Kids {
			s, err := tsNode(k)
			if err != nil {
				return "", err
			}
			kids[i] = s
		}
		return "(" + strings.Join(kids, " | ") + ")", nil
	case index.KindTerm, index.KindPhrase, index.KindPrefix:
		text := n.Text
		if n.Kind == index.KindPhrase || text == "" {
			text = strings.Join(n.Words, " ")
		}
		words := strings.Fields(searchWords(text))
		if len(words) == 0 {
			return "", fmt.Errorf("postgres: query term %q has no word", n.Text)
		}
		for i, w := range words {
			words[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(w, `\`, `\\`), "'", "''") + "'"
		}
		if n.Kind == index.KindPrefix {
			words[len(words)-1] += ":*"
		}
		if len(words) == 1 {
			return words[0], nil
		}
		return "(" + strings.Join(words, " <-> ") + ")", nil
	}
	return "", fmt.Errorf("postgres: render query: unknown node kind %v", n.Kind)
}

// titleQuery renders sets of words (index.Vocabulary.Titled) as a tsquery of the title's
// lexemes alone (weight A, index.go): ('a':A & 'b':A) | ('c':A); each word goes through
// searchWords and is quoted as a lexeme. "" when no set has a word.
func titleQuery(sets [][]string) string {
	var alts []string
	for _, set := range sets {
		var lexemes []string
		for _, w := range set {
			for _, f := range strings.Fields(searchWords(w)) {
				lexemes = append(lexemes, lexeme(f, false)+":A")
			}
		}
		if len(lexemes) > 0 {
			alts = append(alts, "("+strings.Join(lexemes, " & ")+")")
		}
	}
	return strings.Join(alts, " | ")
}
