package index

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// The page named for all of the query but one word (issue 32): a query of a few words can name
// a page by its title and URL ("custom error pages": "Custom Error Responses" at
// custom-error.html) that the search as typed does not show, because the page never says one of
// the words ("pages"), or shows low, because the pages that say them all are many. When no
// result of the first page is named for the query (the title-and-URL rule of ranking.go), and
// some fetched page is named for every word of it but one, that page is the one the person
// means, and it is shown first. Decided here, once; a store supplies the probe of its titles
// (Vocabulary.Titled) and calls SearchRespelled, which tries this on a first page that matches.
//
//   - Only a first page (Offset 0) with results, of a query read in the query language (not
//     Parsed.Plain) of MinNamedWords to MaxNamedWords required terms (Parsed.Must, after a
//     question's function words are left out), each a single word or a phrase, no OR nor prefix,
//     is looked at; and only when none of its results is named for the query: none has the
//     title-and-URL factor (Result.TitleURLFactor above 1), nor a title that holds every word
//     as that rule reads a title ("Introduction to Server Side Includes" at howto/ssi.html is
//     named for "server side includes", though its URL spells no word of it).
//   - The word that may be left out is one of the query's plain one-word terms, as for the rule
//     of all words but one (relax.go): never a phrase's word, nor a word quoted to require it.
//   - The store's titles are probed first, once for all the words that may be left out: up to
//     MaxNamedProbe fetched, visible entries whose title matches every other word (the head
//     index: titles only, no body; its cost does not grow with the body's matches). An entry's
//     title and URL are then read as the title-and-URL rule reads them (termForms.held: plurals
//     folded, CamelCase parts, abbreviations): the title must hold every other word, and the URL
//     path one of them. No such entry: the page as typed, at the cost of the probe alone.
//   - When several words may be left out, the one the most entries hold (Vocabulary.Entries,
//     counted up to MaxRelaxEntries) is: the least informative. Among equals, the first typed.
//   - The query without that word is then searched (an ordinary query, one search more), and
//     its best result that is named for it by the title-and-URL rule, a fetched page, is shown
//     first; the other results keep their order after it, the page's last result giving way
//     (the following pages are the query's as typed). The page keeps its query, Total and
//     Terms as typed, and a note says which page was put first and which word its title lacks.
//     If the search without the word shows no such page, the page as typed is returned.
const (
	MinNamedWords = 3
	MaxNamedWords = 4
	MaxNamedProbe = 100
)

// TitledEntry is a fetched entry whose title a store's probe found (Vocabulary.Titled).
type TitledEntry struct {
	URL, Title string
}

// nameAllButOne applies the rule above to page, the first page of q as typed (its Total above
// 0), with search the store's search of a query as typed.
func nameAllButOne(ctx context.Context, q Query, page Page, v Vocabulary, search func(context.Context, Query) (Page, error)) (Page, error) {
	if q.Offset > 0 || len(page.Results) == 0 {
		return page, nil
	}
	nq, ok := namedQueryOf(q.Text, page.Results)
	if !ok {
		return page, nil
	}
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	drop, ok, err := nq.leftOut(ctx, v, now)
	if err != nil || !ok {
		return page, err
	}
	term := nq.p.Must[nq.owner[drop]]
	cut, ok := withoutTerm(q.Text, nq.p, nq.owner[drop])
	if !ok {
		return page, nil
	}
	q2 := q
	q2.Text = cut
	page2, err := search(ctx, q2)
	if err != nil {
		return page, err
	}
	at := slices.IndexFunc(page2.Results, func(r Result) bool { return !r.LinkOnly && r.TitleURLFactor > 1 })
	if at < 0 {
		return page, nil
	}
	first := page2.Results[at]
	rest := slices.DeleteFunc(slices.Clone(page.Results), func(r Result) bool {
		return r.URL == first.URL || first.ContentHash != 0 && r.ContentHash == first.ContentHash
	})
	page.Results = append([]Result{first}, rest[:min(len(rest), max(page.Limit, 1)-1)]...)
	page.Notes = append(page.Notes, namedNote(cut, term.Text))
	return page, nil
}

// namedQuery is a query the rule may apply to: its parse, the words of its required terms in
// order (their forms and the mask of them all), the index in p.Must of each word's term, and
// the indexes in words of the words that may be left out.
type namedQuery struct {
	p            Parsed
	words        []string
	forms        termForms
	all          uint64
	owner, drops []int
}

// namedQueryOf reads text as the rule reads it (see above), given the results of its first
// page; ok is false when the rule does not apply.
func namedQueryOf(text string, shown []Result) (nq namedQuery, ok bool) {
	nq.p = Parse(text)
	if nq.p.Plain || len(nq.p.Must) < MinNamedWords || len(nq.p.Must) > MaxNamedWords {
		return nq, false
	}
	for i, n := range nq.p.Must {
		if n.Kind != KindTerm && n.Kind != KindPhrase {
			return nq, false
		}
		for _, w := range n.Words {
			nq.words, nq.owner = append(nq.words, w), append(nq.owner, i)
		}
	}
	if len(nq.words) > 64 {
		return nq, false
	}
	nq.forms = termFormsOf(nq.words)
	nq.all = nq.forms.all()
	if slices.ContainsFunc(shown, func(r Result) bool { return r.TitleURLFactor > 1 || nq.forms.held(r.Title) == nq.all }) {
		return nq, false // a result is named for the query already
	}
	for _, i := range droppable(text, nq.p) {
		nq.drops = append(nq.drops, slices.Index(nq.owner, i))
	}
	return nq, len(nq.drops) > 0
}

// leftOut returns the index in nq.words of the word to leave out: of those the rest of which
// name an entry by its title and URL (one probe of v's titles), the one the most entries hold;
// ok is false when the rest names no entry whatever word is left out.
func (nq namedQuery) leftOut(ctx context.Context, v Vocabulary, now time.Time) (drop int, ok bool, err error) {
	sets := make([][]string, len(nq.drops))
	for k, d := range nq.drops {
		sets[k] = slices.Delete(slices.Clone(nq.words), d, d+1)
	}
	entries, err := v.Titled(ctx, sets, now, MaxNamedProbe)
	if err != nil {
		return 0, false, fmt.Errorf("index: named for all words but one: %w", err)
	}
	nameRest := make([]bool, len(nq.drops)) // some entry is named for every word but drops[k]
	for _, e := range entries {
		title, path := nq.forms.held(e.Title), nq.forms.held(urlPath(e.URL))
		for k, d := range nq.drops {
			rest := nq.all &^ (1 << d)
			nameRest[k] = nameRest[k] || titleAndURLHold(title&rest, path&rest, rest)
		}
	}
	var named []int // the indexes in words of the words the rest of which name an entry
	var words []string
	for k, d := range nq.drops {
		if nameRest[k] {
			named, words = append(named, d), append(words, nq.words[d])
		}
	}
	if len(named) == 0 {
		return 0, false, nil
	}
	k, err := leastInformative(ctx, v, words)
	if err != nil {
		return 0, false, fmt.Errorf("index: named for all words but one: %w", err)
	}
	return named[k], true, nil
}

// namedNote is the note of a page whose first result is named for cut, the query without the
// word missing.
func namedNote(cut, missing string) string {
	return fmt.Sprintf("no page is named for every word: first, the page named for %q (Missing: %s)", cut, missing)
}
