package main

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
)

// docFreq counts, for every word of a set of documents, how many documents contain it. Words
// are what the index's tokenizer makes of ASCII text: runs of letters and digits, lower-cased.
// The zero value is empty and ready; it is not safe for concurrent use.
type docFreq struct {
	ids   map[string]int32
	words []string
	df    []int32
	last  []int32 // the last document (numbered from 1) that counted the word
	docs  int32
}

// add counts one document.
func (d *docFreq) add(texts ...string) {
	if d.ids == nil {
		d.ids = map[string]int32{}
	}
	d.docs++
	for _, text := range texts {
		eachWord(text, func(w []byte) {
			id, ok := d.ids[string(w)] // no allocation for the lookup
			if !ok {
				id = int32(len(d.words))
				d.ids[string(w)] = id
				d.words = append(d.words, string(w))
				d.df = append(d.df, 0)
				d.last = append(d.last, 0)
			}
			if d.last[id] != d.docs {
				d.last[id] = d.docs
				d.df[id]++
			}
		})
	}
}

// count returns how many documents contain word (lower case).
func (d *docFreq) count(word string) int {
	if id, ok := d.ids[word]; ok {
		return int(d.df[id])
	}
	return 0
}

// eachWord calls fn with each run of ASCII letters and digits of s, lower-cased. The slice
// is reused: fn must copy what it keeps.
func eachWord(s string, fn func([]byte)) {
	var w []byte
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			w = append(w, c)
		case 'A' <= c && c <= 'Z':
			w = append(w, c+'a'-'A')
		default:
			if len(w) > 0 {
				fn(w)
				w = w[:0]
			}
		}
	}
}

// band is a range of words by document frequency.
type band struct {
	Name           string
	Words          []string // most frequent first
	MinDF, MaxDF   int
	FromPct, ToPct int // the band's place in the vocabulary sorted by frequency, in percent
}

// bands splits the vocabulary, sorted by document frequency (then alphabetically), into the
// words of the frequent, medium and rare query classes: the top 1%, the middle 40-60% and
// the bottom 10%.
func (d *docFreq) bands() (frequent, medium, rare band, err error) {
	ids := make([]int32, len(d.words))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortFunc(ids, func(a, b int32) int {
		return cmp.Or(cmp.Compare(d.df[b], d.df[a]), cmp.Compare(d.words[a], d.words[b]))
	})
	cut := func(name string, from, to int) band {
		lo, hi := len(ids)*from/100, len(ids)*to/100
		if hi <= lo {
			hi = min(lo+1, len(ids))
		}
		b := band{Name: name, FromPct: from, ToPct: to}
		for _, id := range ids[lo:hi] {
			b.Words = append(b.Words, d.words[id])
		}
		if len(b.Words) > 0 {
			b.MaxDF, b.MinDF = int(d.df[ids[lo]]), int(d.df[ids[hi-1]])
		}
		return b
	}
	if len(ids) < 10 {
		return band{}, band{}, band{}, fmt.Errorf("vocabulary of %d words: too small for query classes", len(ids))
	}
	return cut("frequent", 0, 1), cut("medium", 40, 60), cut("rare", 90, 100), nil
}

// unknownWord returns a word of 8 letters that no counted document contains.
func (d *docFreq) unknownWord(r *rand.Rand) string {
	const letters = "bcdfghjklmnpqrstvwxz" // no vowels: nothing like the generated words
	for {
		b := make([]byte, 8)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		if d.count(string(b)) == 0 {
			return string(b)
		}
	}
}

// misspelt returns word with two neighbouring letters after its second swapped (a typing slip
// that index.Respell corrects: the first two letters kept, one edit), the first such swap from
// a random place that no counted document contains; word itself when there is none (a word of
// three letters or fewer, or of one letter repeated).
func (d *docFreq) misspelt(r *rand.Rand, word string) string {
	if len(word) < 4 {
		return word
	}
	n := len(word) - 3 // swaps of letters i and i+1, for i from 2 to len-2
	start := r.IntN(n)
	for k := range n {
		i := 2 + (start+k)%n
		b := []byte(word)
		b[i], b[i+1] = b[i+1], b[i]
		if w := string(b); w != word && d.count(w) == 0 {
			return w
		}
	}
	return word
}
