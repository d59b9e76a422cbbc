package index

import "strings"

// MinAbbreviationBytes is the shortest word of a title or URL path that the title-and-URL rule
// (TitleURLBoost) reads as an abbreviation of a query word it begins, and
// MaxAbbreviationShare the largest part of that word it may be: "auth" in mod_auth_basic
// stands for "authentication", "config" for "configuration"; "log" or "mod" would stand for
// too much, and "json" is another word than "jsonb", "index" than "indexing".
const (
	MinAbbreviationBytes = 4
	MaxAbbreviationShare = 0.5
)

// abbreviates reports whether w, a word of a title or URL path, abbreviates word, a query word
// (its plural folded): w is at least MinAbbreviationBytes long, at most MaxAbbreviationShare of
// word's length, and begins it, case folded. Both are read as bytes: a w that would end inside a rune of word abbreviates
// nothing.
func abbreviates(w, word string) bool {
	return len(w) >= MinAbbreviationBytes && float64(len(w)) <= MaxAbbreviationShare*float64(len(word)) &&
		strings.EqualFold(word[:len(w)], w)
}

// MinCompoundFirstBytes is the shortest query word that compounds (below) read as its initial
// letter: "virtual" in "vhosts"; a word of a few letters is seldom shortened so.
const MinCompoundFirstBytes = 4

// compounds reports whether w, a word of a title or URL path (its plural folded), is the
// initial letter of first and then the whole of next, two query words typed in that order
// (their plurals folded): "vhosts" for "virtual hosts", "email" for "electronic mail", case
// folded. first is at least MinCompoundFirstBytes long and next at least MinAbbreviationBytes:
// "xhost" is no compound of "x host". Read as bytes, as abbreviates is.
func compounds(w, first, next string) bool {
	return len(first) >= MinCompoundFirstBytes && len(next) >= MinAbbreviationBytes && len(w) == 1+len(next) &&
		strings.EqualFold(w[:1], first[:1]) && strings.EqualFold(w[1:], next)
}
