package index

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// All words but one (issue 32): a query of words the index knows can still match nothing when
// no page holds them all ("custom error pages": the page on custom error responses never says
// "pages"). Such a query is searched again without one word, as a web search engine does, and
// the page says which word is missing. Decided here, once; a store supplies its vocabulary
// (Vocabulary.Holds and Vocabulary.Entries) and calls SearchRespelled, which tries this after the
// spelling correction.
//
//   - Only a first page (Offset 0) that matches nothing is relaxed, and only a query read in the
//     query language (not Parsed.Plain) of at least MinRelaxWords required terms (Parsed.Must),
//     every word of whose terms and phrases some entry holds (Vocabulary.Holds): a word no entry
//     holds is the spelling correction's, and dropping another word would hide it.
//   - The word dropped is one of the query's plain one-word terms: never a phrase, a word
//     quoted to require it ("pages"), a prefix, an OR, an identifier (a term of several words,
//     "mod_rewrite"), an excluded word or a site: filter. Of those, it is the one the most entries hold (Vocabulary.Entries, counted up to
//     MaxRelaxEntries): the least informative. Among equals, the first typed.
//   - The word is cut from the query's text, which is then an ordinary query (a question stays
//     a question), searched once more and no more. If its parse is not the query's less that
//     term (a cut that would let a word beyond MaxQueryTerms in), nothing is dropped.
//   - If the relaxed query matches nothing either, the page of the query as typed is returned.
//     Otherwise its page keeps the query as typed (Page.Query), lists the dropped word in
//     Page.Missing and says so in a note.
const (
	MinRelaxWords   = 3
	MaxRelaxEntries = 10000
)

// Relaxed is a query with one word dropped: the query's text without it, and the word.
type Relaxed struct {
	Text, Missing string
}

// Relax returns text with its least informative word dropped (see above), and ok false when
// the rule does not apply to text.
func Relax(ctx context.Context, v Vocabulary, text string) (r Relaxed, ok bool, err error) {
	p := Parse(text)
	if p.Plain || len(p.Must) < MinRelaxWords {
		return Relaxed{}, false, nil
	}
	cands := droppable(text, p)
	if len(cands) == 0 {
		return Relaxed{}, false, nil
	}
	for _, n := range p.Must {
		if n.Kind != KindTerm && n.Kind != KindPhrase {
			continue
		}
		for _, w := range n.Words {
			held, err := v.Holds(ctx, w)
			if err != nil {
				return Relaxed{}, false, fmt.Errorf("index: relax %q: %w", w, err)
			}
			if !held {
				return Relaxed{}, false, nil
			}
		}
	}
	words := make([]string, len(cands))
	for k, i := range cands {
		words[k] = p.Must[i].Words[0]
	}
	k, err := leastInformative(ctx, v, words)
	if err != nil {
		return Relaxed{}, false, fmt.Errorf("index: relax: %w", err)
	}
	drop := cands[k]
	cut, ok := withoutTerm(text, p, drop)
	if !ok {
		return Relaxed{}, false, nil
	}
	return Relaxed{Text: cut, Missing: p.Must[drop].Words[0]}, true, nil
}

// droppable returns the indexes in p.Must (p the parse of text) of the terms a rule may leave
// out: plain one-word terms, never a phrase's word nor a word quoted to require it.
func droppable(text string, p Parsed) []int {
	quoted := quotedWords(text)
	var out []int
	for i, n := range p.Must {
		if n.Kind == KindTerm && len(n.Words) == 1 && !quoted[n.Text] {
			out = append(out, i)
		}
	}
	return out
}

// leastInformative returns the index in words of the word the most entries hold (v.Entries,
// counted up to MaxRelaxEntries); among equals, the first. One word is chosen without a lookup.
func leastInformative(ctx context.Context, v Vocabulary, words []string) (int, error) {
	if len(words) == 1 {
		return 0, nil
	}
	best, most := 0, -1
	for k, w := range words {
		n, err := v.Entries(ctx, w, MaxRelaxEntries)
		if err != nil {
			return 0, fmt.Errorf("entries of %q: %w", w, err)
		}
		if n > most {
			best, most = k, n
		}
	}
	return best, nil
}

// withoutTerm returns text, whose parse is p, without p.Must[i] (a plain term): an ordinary
// query whose parse is p less that term; ok is false when text has no such item, or when the
// cut would read otherwise (a word beyond MaxQueryTerms let in).
func withoutTerm(text string, p Parsed, i int) (string, bool) {
	cut, ok := cutTerm(text, p.Must[i].Text)
	if !ok {
		return text, false
	}
	want := p
	want.Must = append(append([]Node{}, p.Must[:i]...), p.Must[i+1:]...)
	if got := Parse(cut); !reflect.DeepEqual(got.Must, want.Must) || !reflect.DeepEqual(got.Not, want.Not) ||
		!reflect.DeepEqual(got.Sites, want.Sites) {
		return text, false
	}
	return cut, true
}

// cutTerm returns text without each item that the query language reads as the required term
// term (not an excluded one, a quoted one, nor an alternative of OR), spaces between items made single; ok is
// false when text has no such item.
func cutTerm(text, term string) (string, bool) {
	items, bad := lex(text)
	if bad != "" {
		return text, false
	}
	isOr := func(i int) bool {
		return i >= 0 && i < len(items) && !items[i].phrase && !items[i].neg && items[i].text == "OR"
	}
	var b strings.Builder
	last, ok := 0, false
	for i, it := range items {
		if it.neg || it.phrase || isOr(i-1) || isOr(i+1) {
			continue
		}
		if n, isNode, _ := termNode(it.text, it.phrase); !isNode || n.Kind != KindTerm || n.Text != term {
			continue
		}
		b.WriteString(text[last:it.start])
		last, ok = it.end, true
	}
	b.WriteString(text[last:])
	return strings.Join(strings.Fields(b.String()), " "), ok
}

// quotedWords returns the words of text quoted alone ("pages"), which the query requires.
func quotedWords(text string) map[string]bool {
	items, _ := lex(text)
	out := map[string]bool{}
	for _, it := range items {
		if n, ok, _ := termNode(it.text, it.phrase); it.phrase && ok && n.Kind == KindTerm {
			out[n.Text] = true
		}
	}
	return out
}

// relaxedNote is the note of a page searched without the word r.Missing.
func relaxedNote(r Relaxed) string {
	return fmt.Sprintf("no page holds every word: showing results for %q (Missing: %s)", r.Text, r.Missing)
}
