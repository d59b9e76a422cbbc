package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Spelling (issue 32): a query that matches nothing because a word of it is misspelt
// ("virtaul hosts", "authentification") is searched again with that word corrected from the
// index's own vocabulary, and the page says so in a note. Decided here, once; a store supplies
// only its vocabulary (Vocabulary) and calls SearchRespelled.
//
//   - Only a search that matches nothing, on its first page, is corrected: a word some entry
//     holds is never replaced, and a query that finds something is shown as typed.
//   - The words corrected are those of the required terms and phrases (the words of an
//     identifier too, "mod_rewirte": mod, rewirte; not prefixes or alternatives) that no entry
//     holds (Vocabulary.Holds), at most MaxRespelledWords of them, and of more than
//     SpellPrefixRunes letters.
//   - A correction is a term of the index that begins with the word's first SpellPrefixRunes
//     letters (a misspelling seldom starts wrong), read from at most MaxVocabTerms terms (or,
//     from a TermSeeker, found in at most MaxVocabTerms seeks, counted up to MaxSpellEntries), at the
//     fewest edits (insert, delete, replace, or swap two neighbours: spellDistance), at most
//     maxEdits(word): 1 for a word of up to 4 letters, 2 above. The index holds stems (both
//     stores stem English: "authentication" is held as "authent"), so a term is compared as
//     written and with each of stemEndings after it, if it is at least 3 letters and a third of
//     the word long. Among equally close terms the one most
//     entries hold wins (a frequent word is the likelier meaning), then the shorter, then the
//     first in order.
//   - The best MaxSpellCandidates terms are then measured by the words the indexed text spells
//     them with (Vocabulary.Spellings), within the same edits: a stem and an ending can make a
//     word no text says ("attent" and "ication" are one edit from "athentication"). The word
//     typed is replaced, in the query's text, by the nearest spelling (the first term's among
//     equals): the corrected query is an ordinary query, ranked, highlighted and snippeted as if
//     typed so.
//   - If the corrected query matches nothing either, the page of the query as typed is returned.
const (
	MaxRespelledWords = 3
	MaxVocabTerms     = 5000
	SpellPrefixRunes  = 2
	// MaxSpellCandidates bounds the closest terms whose spellings are read (Vocabulary.Spellings)
	// and MaxSpellings the spellings read of each.
	MaxSpellCandidates = 4
	MaxSpellings       = 8
)

// stemEndings are the endings that the index's English stemmers (Porter in SQLite's FTS5,
// Snowball English in PostgreSQL) take off a word, so that a stem ("authent", "revers",
// "transact") is compared with the word a person types ("authentication", "reverse",
// "transaction"), less a misspelling.
var stemEndings = []string{"", "e", "s", "es", "ed", "ing", "ings", "er", "ers", "or", "ors", "ion", "ions",
	"ation", "ations", "ication", "ications", "ate", "ated", "ates", "ating", "icate", "icated", "icates",
	"ic", "ics", "ical", "ically", "al", "ally", "ly", "ment", "ments", "ness", "ity", "ities", "ive",
	"ative", "ize", "ized", "ise", "ised", "y", "ies", "ied", "ence", "ance", "ency", "ancy", "ent", "ant",
	"able", "ible", "ful", "ous", "ism", "ist", "ists"}

// VocabTerm is a term of an index (as its tokenizer writes it: a stem) and how many entries
// hold it (a store may count only part of its entries, VocabTermsSampled).
type VocabTerm struct {
	Term    string
	Entries int
}

// Vocabulary is what a store knows of the words it indexes, for spelling correction and for
// dropping a word of a query that matches nothing (relax.go). Its methods are safe for
// concurrent use, as the store's Search is.
type Vocabulary interface {
	// Holds reports whether some entry matches word (a lower-case run of letters and digits)
	// as the store searches it.
	Holds(ctx context.Context, word string) (bool, error)
	// VocabTerms returns terms of the index that begin with prefix, at most limit of them, with
	// the entries holding each.
	VocabTerms(ctx context.Context, prefix string, limit int) ([]VocabTerm, error)
	// Spellings returns words of the indexed text that the store indexes as term, at most
	// limit of them, lower-cased; none when it finds none.
	Spellings(ctx context.Context, term string, limit int) ([]string, error)
	// Entries returns how many entries match word (a lower-case run of letters and digits) by
	// their own text (title, headings, URL words, body; not anchor text), as the store searches
	// it, counted up to limit: limit when it is more.
	Entries(ctx context.Context, word string, limit int) (int, error)
	// Titled returns up to limit fetched entries (not link-only), visible at now (not
	// unavailable_after it), whose title matches every word of one of sets (each a list of
	// lower-case runs of letters and digits), as the store searches a title, with their URL and
	// title: the probe of the rule of the page named for all of the query but one word
	// (named.go), which reads only titles.
	Titled(ctx context.Context, sets [][]string, now time.Time, limit int) ([]TitledEntry, error)
}

// SearchRespelled is the search of a store with a vocabulary: search(q), and when that page
// matches nothing, the search of q with its misspelt words corrected (see above); when that
// corrects nothing or matches nothing either, the search of q without its least informative
// word (relax.go). A first page that matches, none of whose results is named for the query,
// may show first the page named for all of the query but one word (named.go). The page of a
// search of another text keeps q.Text as its Query and adds a note saying what was searched.
// At most two searches follow the first.
func SearchRespelled(ctx context.Context, q Query, v Vocabulary, search func(context.Context, Query) (Page, error)) (Page, error) {
	page, err := search(ctx, q)
	if err != nil || q.Offset > 0 {
		return page, err
	}
	if page.Total > 0 {
		return nameAllButOne(ctx, q, page, v, search)
	}
	text, fixed, err := Respell(ctx, v, q.Text)
	if err != nil {
		return page, err
	}
	if len(fixed) > 0 {
		q2 := q
		q2.Text = text
		page2, err := search(ctx, q2)
		if err != nil {
			return page, err
		}
		if page2.Total > 0 {
			page2.Query = q.Text
			page2.Notes = append(page2.Notes, respelledNote(text, fixed))
			return page2, nil
		}
	}
	r, ok, err := Relax(ctx, v, q.Text)
	if err != nil || !ok {
		return page, err
	}
	q3 := q
	q3.Text = r.Text
	page3, err := search(ctx, q3)
	// A page that counts matches but shows none (PostgreSQL counts an excluded word's entries
	// by their head alone, search.go) is no answer either.
	if err != nil || page3.Total == 0 || len(page3.Results) == 0 {
		return page, err
	}
	page3.Query = q.Text
	page3.Missing = append(page3.Missing, r.Missing)
	page3.Notes = append(page3.Notes, relaxedNote(r))
	return page3, nil
}

// Respelled is one correction: the word typed and the word searched instead.
type Respelled struct {
	Typed, Searched string
}

func respelledNote(text string, fixed []Respelled) string {
	typed := make([]string, len(fixed))
	for i, f := range fixed {
		typed[i] = `"` + f.Typed + `"`
	}
	return fmt.Sprintf("nothing matched %s: showing results for %q", strings.Join(typed, ", "), text)
}

// Respell returns text with its misspelt words corrected from v (see above), and the
// corrections; none when it corrects nothing (text is then returned as it was).
func Respell(ctx context.Context, v Vocabulary, text string) (string, []Respelled, error) {
	p := Parse(text)
	var fixed []Respelled
	seen := map[string]bool{}
	for _, n := range p.Must {
		if n.Kind != KindPhrase && n.Kind != KindTerm {
			continue
		}
		for _, w := range n.Words {
			if seen[w] || len(fixed) == MaxRespelledWords || utf8.RuneCountInString(w) <= SpellPrefixRunes {
				continue
			}
			seen[w] = true
			if held, err := v.Holds(ctx, w); err != nil || held {
				if err != nil {
					return text, nil, fmt.Errorf("index: respell %q: %w", w, err)
				}
				continue
			}
			s, err := correct(ctx, v, w)
			if err != nil {
				return text, nil, fmt.Errorf("index: respell %q: %w", w, err)
			}
			if s != "" && s != w {
				fixed = append(fixed, Respelled{Typed: w, Searched: s})
			}
		}
	}
	if len(fixed) == 0 {
		return text, nil, nil
	}
	return replaceWords(text, fixed), fixed, nil
}

// correct returns the correction of w from v (see above), "" when there is none.
func correct(ctx context.Context, v Vocabulary, w string) (string, error) {
	prefix := string([]rune(w)[:SpellPrefixRunes])
	limit := maxEdits(w)
	var terms []VocabTerm
	var err error
	if ts, ok := v.(TermSeeker); ok {
		terms, err = seekTerms(ctx, ts, w, prefix, limit)
	} else {
		terms, err = v.VocabTerms(ctx, prefix, MaxVocabTerms)
	}
	if err != nil {
		return "", err
	}
	type cand struct {
		VocabTerm
		d int
	}
	var cands []cand
	for _, t := range terms {
		if d := stemDistance(w, t.Term, limit); d <= limit {
			cands = append(cands, cand{t, d})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(b.Entries, a.Entries),
			cmp.Compare(len(a.Term), len(b.Term)), strings.Compare(a.Term, b.Term))
	})
	// A stem and an ending can make what no text says ("attent" and "ication" are one edit from
	// "athentication"): the candidates are measured again by the words the text spells them with.
	best, bestD := "", limit+1
	for _, c := range cands[:min(len(cands), MaxSpellCandidates)] {
		spellings, err := v.Spellings(ctx, c.Term, MaxSpellings)
		if err != nil {
			return "", err
		}
		if s, d := closest(w, spellings, limit); d < bestD {
			best, bestD = s, d
		}
	}
	return best, nil
}

// maxEdits is the most edits a correction of w may need: 1 for a word of up to 4 letters, 2
// for a longer one.
func maxEdits(w string) int {
	if utf8.RuneCountInString(w) <= 4 {
		return 1
	}
	return 2
}

// stemDistance is the fewest edits between w and the stem term followed by one of
// stemEndings, more than limit when it is more. A stem shorter than minStemRunes(w) is no
// correction of w: its endings alone would make it most words ("ht" and "ness" are two edits
// from "htacess").
func stemDistance(w, term string, limit int) int {
	d := limit + 1
	if utf8.RuneCountInString(term) < minStemRunes(w) {
		return d
	}
	for _, e := range stemEndings {
		if n := utf8.RuneCountInString(term) + len(e) - utf8.RuneCountInString(w); n > limit || -n > limit {
			continue
		}
		d = min(d, spellDistance(w, term+e, limit))
	}
	return d
}

// minStemRunes is the shortest stem that may correct w: 3 runes, and a third of w.
func minStemRunes(w string) int {
	return max(3, (utf8.RuneCountInString(w)+2)/3)
}

// closest returns the spelling nearest w (the first of the nearest) and its distance, at most
// limit; "" and limit+1 when none is that near.
func closest(w string, spellings []string, limit int) (string, int) {
	best, bestD := "", limit+1
	for _, s := range spellings {
		if d := spellDistance(w, s, limit); d < bestD {
			best, bestD = s, d
		}
	}
	return best, bestD
}

// spellDistance is the optimal string alignment distance between a and b, in runes: the edits
// (insert, delete, replace, swap two neighbours) that make one the other, each substring edited
// once. It stops early, with a result above limit, once every alignment costs more than limit.
func spellDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if n := len(ra) - len(rb); n > limit || -n > limit {
		return limit + 1
	}
	rows := newOSARows(rb)
	for _, r := range ra {
		if rows.add(r) > limit {
			return limit + 1
		}
	}
	return rows.distance()
}

// replaceWords returns text with every whole word (a run of letters and digits, any case) that
// is a Typed word of fixed replaced by its Searched word.
func replaceWords(text string, fixed []Respelled) string {
	var b strings.Builder
	for rest := text; rest != ""; {
		start := strings.IndexFunc(rest, isWordRune)
		if start < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:start])
		rest = rest[start:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !isWordRune(r) })
		if end < 0 {
			end = len(rest)
		}
		run := rest[:end]
		rest = rest[end:]
		i := slices.IndexFunc(fixed, func(f Respelled) bool { return f.Typed == strings.ToLower(run) })
		if i < 0 {
			b.WriteString(run)
			continue
		}
		b.WriteString(fixed[i].Searched)
	}
	return b.String()
}

// SpellingAt returns the word at token position offset of text, as a tokenizer that splits on
// everything but letters, digits and marks counts them (SQLite's unicode61), lower-cased; ""
// when text has fewer tokens. A store whose index records positions reads a term's spelling so.
func SpellingAt(text string, offset int) string {
	tok := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) }
	i := 0
	for rest := text; rest != ""; i++ {
		start := strings.IndexFunc(rest, tok)
		if start < 0 {
			return ""
		}
		rest = rest[start:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !tok(r) })
		if end < 0 {
			end = len(rest)
		}
		if i == offset {
			return strings.ToLower(rest[:end])
		}
		rest = rest[end:]
	}
	return ""
}
