package main

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Words are what FTS5's unicode61 tokenizer makes of ASCII text: runs of letters and digits,
// case folded.
func TestEachWord(t *testing.T) {
	var got []string
	eachWord("Hello, wORLD-42 x\n\nnext: a_b", func(w []byte) { got = append(got, string(w)) })
	want := []string{"hello", "world", "42", "x", "next", "a", "b"}
	if !slices.Equal(got, want) {
		t.Errorf("eachWord = %q, want %q", got, want)
	}
}

func TestDocFreqCountsDocumentsNotOccurrences(t *testing.T) {
	var d docFreq
	d.add("the cat and the hat", "The Title")
	d.add("a dog")
	d.add("THE end")
	for w, want := range map[string]int{"the": 2, "cat": 1, "title": 1, "dog": 1, "bird": 0} {
		if got := d.count(w); got != want {
			t.Errorf("count(%q) = %d, want %d", w, got, want)
		}
	}
}

// 100 words: word wN is in N documents (of 100). Bands: top 1%, 40-60%, bottom 10%.
func TestBands(t *testing.T) {
	var d docFreq
	for doc := 1; doc <= 100; doc++ {
		var words []string
		for n := doc; n <= 100; n++ {
			words = append(words, "w"+strconv.Itoa(n))
		}
		d.add(strings.Join(words, " "))
	}
	frequent, medium, rare, err := d.bands()
	if err != nil {
		t.Fatal(err)
	}
	check := func(b band, n, minDF, maxDF int, first string) {
		t.Helper()
		if len(b.Words) != n || b.MinDF != minDF || b.MaxDF != maxDF || b.Words[0] != first {
			t.Errorf("%s band: %d words, df %d-%d, first %q; want %d words, df %d-%d, first %q",
				b.Name, len(b.Words), b.MinDF, b.MaxDF, b.Words[0], n, minDF, maxDF, first)
		}
	}
	check(frequent, 1, 100, 100, "w100")
	check(medium, 20, 41, 60, "w60")
	check(rare, 10, 1, 10, "w10")

	var small docFreq
	small.add("too few words")
	if _, _, _, err := small.bands(); err == nil {
		t.Error("bands of 3 words: no error")
	}
}

func TestUnknownWord(t *testing.T) {
	var d docFreq
	d.add("bcdfghjk")
	r := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		if w := d.unknownWord(r); d.count(w) != 0 || len(w) != 8 {
			t.Fatalf("unknownWord = %q, which is counted or not 8 letters", w)
		}
	}
}

func vocabFixture() *docFreq {
	var d docFreq
	for doc := 1; doc <= 200; doc++ {
		var words []string
		for n := 1; n <= 300; n++ {
			if doc%n == 0 || n < 5 {
				words = append(words, "w"+strconv.Itoa(n))
			}
		}
		d.add(strings.Join(words, " "))
	}
	return &d
}

// The same documents and seed give the same queries; every class gets its share; the
// no-match classes contain a word no document has.
func TestQuerySet(t *testing.T) {
	d := vocabFixture()
	qs, classes, err := querySet(d, 3, 42)
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := querySet(d, 3, 42)
	if !slices.Equal(qs, again) {
		t.Error("two query sets of the same seed differ")
	}
	other, _, _ := querySet(d, 3, 43)
	if slices.Equal(qs, other) {
		t.Error("query sets of seeds 42 and 43 are the same")
	}
	if len(classes) != 9 || len(qs) != 9*3 {
		t.Fatalf("%d classes, %d queries; want 9 and 27", len(classes), len(qs))
	}
	for _, q := range qs {
		words := strings.Fields(q.Text)
		unknown := 0
		for _, w := range words {
			if d.count(w) == 0 {
				unknown++
			}
		}
		if strings.HasPrefix(q.Class, "misspelt") { // the fixture's words are too short to misspell: TestMisspelt
			continue
		}
		if wantUnknown := strings.HasPrefix(q.Class, "no match"); (unknown == 1) != wantUnknown || unknown > 1 {
			t.Errorf("%s: %q has %d unknown words", q.Class, q.Text, unknown)
		}
	}
}

// Nearest-rank percentiles: the smallest sample that p% of the samples do not exceed.
func TestPercentile(t *testing.T) {
	var hundred []time.Duration
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, time.Duration(i))
	}
	for p, want := range map[float64]time.Duration{50: 50, 95: 95, 99: 99, 100: 100, 0.5: 1} {
		if got := percentile(hundred, p); got != want {
			t.Errorf("percentile(1..100, %v) = %d, want %d", p, got, want)
		}
	}
	five := []time.Duration{50, 10, 40, 20, 30}
	for p, want := range map[float64]time.Duration{50: 30, 95: 50, 20: 10, 21: 20} {
		if got := percentile(five, p); got != want {
			t.Errorf("percentile(five, %v) = %d, want %d", p, got, want)
		}
	}
	if five[0] != 50 {
		t.Error("percentile sorted its input in place")
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile of nothing = %d", got)
	}
}

// misspelt swaps two neighbouring letters after the second into a word no document has, and
// leaves a word it cannot misspell so as it is.
func TestMisspelt(t *testing.T) {
	var d docFreq
	d.add("vacuum vaucum")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 { // vaucum is counted, and swapping the two u's changes nothing
		if w := d.misspelt(r, "vacuum"); w != "vacumu" {
			t.Fatalf("misspelt(vacuum) = %q, want vacumu", w)
		}
	}
	d.add("vacumu")
	for _, w := range []string{"the", "aaaa", "vacuum"} {
		if got := d.misspelt(r, w); got != w {
			t.Errorf("misspelt(%q) = %q, want it as it is", w, got)
		}
	}
}
