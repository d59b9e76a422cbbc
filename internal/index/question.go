package index

import (
	"fmt"
	"slices"
	"strings"
)

// A question typed as plain words ("how do I change a user password", "what is mvcc") names its
// subject with a few words among function words that the page about it need not contain: with
// every word required, "what is mvcc" missed the page introducing MVCC, which never says "what"
// (issue 11, the judged questions). So a query that reads as a question, its first word one of
// questionWords, written without any operator or quote, searches only its other words, less
// the functionWords among them, and the page says so. A question of function words only ("what
// is it") is searched as it is.
var (
	questionWords = []string{"how", "what", "why", "when", "where", "which", "who"}
	functionWords = []string{"a", "an", "the", "is", "are", "was", "were", "be", "do", "does", "did", "can",
		"could", "should", "would", "will", "i", "you", "we", "my", "me", "it", "this", "that", "to", "of",
		"in", "on", "for", "with"}
)

// asQuestion returns p with the question's function words dropped (see above), or p unchanged
// when text does not read as a question. p is text's parse by parseOperators.
func asQuestion(text string, p Parsed) Parsed {
	if strings.ContainsRune(text, '"') || len(p.Not) > 0 || len(p.Sites) > 0 || len(p.Must) < 2 {
		return p
	}
	for _, n := range p.Must {
		if n.Kind != KindTerm {
			return p
		}
	}
	if !slices.Contains(questionWords, p.Must[0].Text) {
		return p
	}
	var keep, dropped []string
	var must []Node
	for _, n := range p.Must {
		if slices.Contains(questionWords, n.Text) || slices.Contains(functionWords, n.Text) {
			dropped = append(dropped, n.Text)
			continue
		}
		must, keep = append(must, n), append(keep, n.Text)
	}
	if len(must) == 0 {
		return p
	}
	p.Must = must
	p.Notes = append(p.Notes, fmt.Sprintf("read as a question: searched for %s (%s left out)",
		strings.Join(keep, " "), strings.Join(dropped, ", ")))
	return p
}
