package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// seekVocab is a fakeVocab whose terms are walked by seeks (TermSeeker), counting them.
type seekVocab struct {
	*fakeVocab
	seeks int
}

func (v *seekVocab) NextTerm(_ context.Context, from string) (string, bool, error) {
	v.seeks++
	terms := make([]string, 0, len(v.terms))
	for t := range v.terms {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	i, _ := slices.BinarySearch(terms, from)
	if i == len(terms) {
		return "", false, v.err
	}
	return terms[i], true, v.err
}

func (v *seekVocab) TermEntries(_ context.Context, term string, limit int) (int, error) {
	return min(v.terms[term], limit), v.err
}

// Issue 26 part 3 (a correction does not read every term of its prefix) and issue 32 (its
// rule): the terms a TermSeeker's walk finds within the edits of a word are exactly those of
// the prefix's whole list within them, whatever the terms and the word, though the walk skips
// the terms no correction begins like.
func TestSeekTermsFindsWhatTheListFinds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const letters = "abcde"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	for round := range 200 {
		v := &seekVocab{fakeVocab: &fakeVocab{terms: map[string]int{}}}
		for range 300 {
			v.terms["ab"+word(1+r.IntN(8))] = 1 + r.IntN(50)
		}
		w := "ab" + word(2+r.IntN(7))
		limit := maxEdits(w)
		var want []VocabTerm
		all, _ := v.VocabTerms(t.Context(), "ab", MaxVocabTerms)
		for _, term := range all {
			if stemDistance(w, term.Term, limit) <= limit {
				want = append(want, term)
			}
		}
		slices.SortFunc(want, func(a, b VocabTerm) int { return strings.Compare(a.Term, b.Term) })
		got, err := seekTerms(t.Context(), v, w, "ab", limit)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, %q: the walk found %v, the list %v", round, w, got, want)
		}
	}
}

// Issue 26 part 3: the walk seeks past the terms that begin unlike any correction: 500 terms
// of the prefix, of which one is near the word, take a few seeks, not 500.
func TestSeekTermsSkipsFarTerms(t *testing.T) {
	v := &seekVocab{fakeVocab: &fakeVocab{terms: map[string]int{"virtual": 3}, spellings: map[string][]string{"virtual": {"virtual"}}}}
	for i := range 500 {
		v.terms[fmt.Sprintf("vizzz%03d", i)] = 1
	}
	got, _, err := Respell(t.Context(), v, "virtaul")
	if err != nil || got != "virtual" {
		t.Errorf("Respell(virtaul) = %q, %v; want virtual", got, err)
	}
	if v.seeks > 10 {
		t.Errorf("the walk made %d seeks among 501 terms, want a few", v.seeks)
	}
}
