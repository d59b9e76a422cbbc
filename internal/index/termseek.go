package index

import (
	"context"
	"strings"
	"unicode/utf8"
)

// TermSeeker is a Vocabulary whose terms can be walked by seeks, one term at a time (issue 26
// part 3: a correction must not cost a read of every entry of every term of its prefix, as
// counting their entries does; at 1,000,000 documents that made the misspelt query class six
// times slower than any other). A correction then reads only the terms that may be within the
// edits of the word (seekTerms) and counts the entries of those that are, up to MaxSpellEntries,
// in place of VocabTerms' list of the prefix's every term with its count.
type TermSeeker interface {
	// NextTerm returns the least term of the index (as VocabTerms lists them) at or above
	// from, and false when there is none.
	NextTerm(ctx context.Context, from string) (string, bool, error)
	// TermEntries returns how many entries hold term (as VocabTerms counts them), counted up
	// to limit: limit when it is more.
	TermEntries(ctx context.Context, term string, limit int) (int, error)
}

// MaxSpellEntries bounds the count of a correction's entries (TermSeeker.TermEntries): terms
// held by more entries count as equally frequent, and the shorter, then the first in order,
// wins among equally close ones.
const MaxSpellEntries = 1000

// seekTerms returns the terms of v that begin with prefix and are within limit edits of w by
// stemDistance, with their entries (up to MaxSpellEntries), in the order of the terms. It walks
// the terms by v.NextTerm and skips, in one seek, every term that begins with a prefix no term
// within the edits begins with (viableRunes). It makes at most MaxVocabTerms seeks, as VocabTerms
// lists at most MaxVocabTerms terms.
func seekTerms(ctx context.Context, v TermSeeker, w, prefix string, limit int) ([]VocabTerm, error) {
	var out []VocabTerm
	from := prefix
	for range MaxVocabTerms {
		t, ok, err := v.NextTerm(ctx, from)
		if err != nil {
			return nil, err
		}
		if !ok || !strings.HasPrefix(t, prefix) {
			break
		}
		n := viableRunes(w, t, limit)
		if n == utf8.RuneCountInString(t) {
			if stemDistance(w, t, limit) <= limit {
				e, err := v.TermEntries(ctx, t, MaxSpellEntries)
				if err != nil {
					return nil, err
				}
				if e > 0 {
					out = append(out, VocabTerm{Term: t, Entries: e})
				}
			}
			from = t + TermAfter
			continue
		}
		from = PrefixEnd(runePrefix(t, n+1))
	}
	return out, nil
}

// TermAfter follows a term to make the least string above it that no term it begins equals:
// terms are runs of letters, digits and marks, all above it.
const TermAfter = "\x01"

// viableRunes returns how many of the first runes of term some term within limit edits of w
// by stemDistance may begin with: the length of term when it may itself be such a term, or the
// longest prefix p of it such that the fewest edits between p and some prefix of w (which no
// extension of p goes below) is at most limit, and p no longer than a term within limit edits
// of w can be (stemDistance's ending may only add to it).
func viableRunes(w, term string, limit int) int {
	rw, rt := []rune(w), []rune(term)
	maxLen := len(rw) + limit
	rows := newOSARows(rw)
	for i, r := range rt {
		if i >= maxLen || rows.add(r) > limit {
			return i
		}
	}
	return len(rt)
}

// runePrefix is the first n runes of s (s when it has fewer).
func runePrefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// PrefixEnd is the least string above every string that begins with prefix (non-empty): prefix
// with its last rune incremented.
func PrefixEnd(prefix string) string {
	r, size := utf8.DecodeLastRuneInString(prefix)
	return prefix[:len(prefix)-size] + string(r+1)
}
