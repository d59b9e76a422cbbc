package index

import "strings"

// WholePhrase is the query as one phrase, for the phrase boost (ranking.go, PhraseBoost): the
// words of its required terms and phrases, in the order typed. ok is false when the query has
// fewer than two required nodes (a single term or phrase is matched as a phrase already), or
// requires a prefix or an alternative (no one phrase says it).
func (p Parsed) WholePhrase() (n Node, ok bool) {
	if len(p.Must) < 2 {
		return Node{}, false
	}
	var words []string
	for _, m := range p.Must {
		if m.Kind != KindTerm && m.Kind != KindPhrase {
			return Node{}, false
		}
		words = append(words, m.Words...)
	}
	return Node{Kind: KindPhrase, Text: strings.Join(words, " "), Words: words}, true
}
