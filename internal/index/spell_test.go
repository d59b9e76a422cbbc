package index

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeVocab is a vocabulary of stems (held by entries), each with its spellings, and a record of
// what was asked.
type fakeVocab struct {
	terms     map[string]int      // stem: entries
	spellings map[string][]string // stem: words of the text
	holds     map[string]bool     // words that some entry matches
	entries   map[string]int      // words: the entries whose text matches them (relax.go)
	prefixes  []string
	titled    []TitledEntry // the entries Titled finds, filtered by their titles' words
	probes    [][][]string  // the sets Titled was asked for
	err       error
}

// Titled returns the entries of v.titled whose title holds, as a word in any case, every word of
// one of sets (no stemming: the tests spell titles as queried).
func (v *fakeVocab) Titled(_ context.Context, sets [][]string, _ time.Time, limit int) ([]TitledEntry, error) {
	v.probes = append(v.probes, sets)
	var out []TitledEntry
	for _, e := range v.titled {
		w := words(e.Title)
		if slices.ContainsFunc(sets, func(set []string) bool {
			return !slices.ContainsFunc(set, func(x string) bool { return !slices.Contains(w, x) })
		}) && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, v.err
}

func (v *fakeVocab) Holds(_ context.Context, w string) (bool, error) { return v.holds[w], v.err }

func (v *fakeVocab) Entries(_ context.Context, w string, limit int) (int, error) {
	return min(v.entries[w], limit), v.err
}

func (v *fakeVocab) VocabTerms(_ context.Context, prefix string, limit int) ([]VocabTerm, error) {
	v.prefixes = append(v.prefixes, prefix)
	var out []VocabTerm
	for t, n := range v.terms {
		if strings.HasPrefix(t, prefix) && len(out) < limit {
			out = append(out, VocabTerm{t, n})
		}
	}
	return out, v.err
}

func (v *fakeVocab) Spellings(_ context.Context, term string, limit int) ([]string, error) {
	s := v.spellings[term]
	return s[:min(len(s), limit)], v.err
}

// The distance of issue 32's spelling: one edit per insert, delete, replace or swap of
// neighbours ("virtaul" is one swap from "virtual"), stopped above the limit.
func TestSpellDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"virtaul", "virtual", 2, 1},
		{"htacess", "htaccess", 2, 1},
		{"flgs", "flags", 2, 1},
		{"authentification", "authentication", 2, 2},
		{"vacum", "vacuum", 2, 1},
		{"kitten", "sitting", 5, 3},
		{"abc", "abc", 0, 0},
		{"abcdef", "uvwxyz", 2, 3}, // above the limit: limit+1
		{"ab", "abcdef", 2, 3},
		{"naïve", "naive", 2, 1}, // runes, not bytes
	} {
		if got := spellDistance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("spellDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

// A stem is compared with the words it stands for: "authent" with "authentication" (2 edits
// from "authentification"), "revers" with itself and "reverse".
func TestStemDistance(t *testing.T) {
	for _, c := range []struct {
		w, term string
		want    int
	}{
		{"authentification", "authent", 2},
		{"revers", "revers", 0},
		{"tranaction", "transact", 1},
		{"flgs", "flag", 1},
		{"htacess", "ht", 3}, // too short a stem: "ht" and "ness" are 2 edits from it
		{"htacess", "htaccess", 1},
	} {
		if got := stemDistance(c.w, c.term, 2); got != c.want {
			t.Errorf("stemDistance(%q, %q) = %d, want %d", c.w, c.term, got, c.want)
		}
	}
}

// Respell (issue 32): the words no entry holds are corrected, to the closest term, the most
// frequent among equally close ones, spelt as the text spells it; held words, identifiers,
// prefixes and short words are left; the text keeps its syntax.
func TestRespell(t *testing.T) {
	v := &fakeVocab{
		terms: map[string]int{"virtual": 30, "virtaal": 1, "host": 50, "authent": 12, "revers": 4, "proxi": 9, "attent": 40},
		spellings: map[string][]string{"virtual": {"virtual"}, "virtaal": {"virtaal"}, "authent": {"authenticated", "authentication"},
			"revers": {"reversed", "reverse"}, "attent": {"attention", "attentive"}},
		holds: map[string]bool{"hosts": true, "proxy": true, "zebra": true},
	}
	for _, c := range []struct {
		text, want string
		fixed      []Respelled
	}{
		{"virtaul hosts", "virtual hosts", []Respelled{{"virtaul", "virtual"}}},
		{"Virtaul hosts -zebra", "virtual hosts -zebra", []Respelled{{"virtaul", "virtual"}}},
		{`"virtaul hosts"`, `"virtual hosts"`, []Respelled{{"virtaul", "virtual"}}},
		{"authentification", "authentication", []Respelled{{"authentification", "authentication"}}},
		{"revers proxy", "reverse proxy", []Respelled{{"revers", "reverse"}}},
		{"zebra hosts", "zebra hosts", nil},                                 // every word is held
		{"virt* hosts", "virt* hosts", nil},                                 // a prefix is not a word to correct
		{"mod_virtaul", "mod_virtual", []Respelled{{"virtaul", "virtual"}}}, // a word of an identifier
		{"athentication", "athentication", nil},                             // "attent" and "ication" are near it, "attention" is not
		{"qqqqqqq hosts", "qqqqqqq hosts", nil},                             // nothing close
		{"virtaul OR zebra", "virtaul OR zebra", nil},                       // nor an alternative
	} {
		got, fixed, err := Respell(t.Context(), v, c.text)
		if err != nil || got != c.want || !slices.Equal(fixed, c.fixed) {
			t.Errorf("Respell(%q) = %q, %v, %v; want %q, %v", c.text, got, fixed, err, c.want, c.fixed)
		}
	}
	for _, p := range v.prefixes {
		if len([]rune(p)) != SpellPrefixRunes {
			t.Errorf("VocabTerms asked for prefix %q, want %d letters", p, SpellPrefixRunes)
		}
	}
	v.err = errors.New("broken")
	if _, _, err := Respell(t.Context(), v, "virtaul hosts"); !errors.Is(err, v.err) {
		t.Errorf("Respell with a failing vocabulary: %v, want it wrapped", err)
	}
}

// At most MaxRespelledWords words of a query are corrected.
func TestRespellBounded(t *testing.T) {
	v := &fakeVocab{terms: map[string]int{}, spellings: map[string][]string{}}
	var typed []string
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"} {
		v.terms[w], v.spellings[w] = 1, []string{w}
		typed = append(typed, w[:len(w)-1]+"x")
	}
	_, fixed, err := Respell(t.Context(), v, strings.Join(typed, " "))
	if err != nil || len(fixed) != MaxRespelledWords {
		t.Errorf("Respell of %d misspelt words corrected %v (%v), want %d", len(typed), fixed, err, MaxRespelledWords)
	}
}

// SearchRespelled searches again only a first page that matches nothing, keeps the query as
// typed, and says what it searched; a corrected query that matches nothing either gives the
// page of the query as typed.
func TestSearchRespelled(t *testing.T) {
	v := &fakeVocab{terms: map[string]int{"virtual": 3}, spellings: map[string][]string{"virtual": {"virtual"}}, holds: map[string]bool{"hosts": true}}
	var searched []string
	matches := map[string]int{"virtual hosts": 5, "hosts": 7}
	search := func(_ context.Context, q Query) (Page, error) {
		searched = append(searched, q.Text)
		return Page{Query: q.Text, Total: matches[q.Text], Terms: Parse(q.Text).Terms()}, nil
	}
	p, err := SearchRespelled(t.Context(), Query{Text: "virtaul hosts"}, v, search)
	if err != nil || p.Query != "virtaul hosts" || p.Total != 5 || !slices.Equal(p.Terms, []string{"virtual", "hosts"}) ||
		len(p.Notes) != 1 || p.Notes[0] != `nothing matched "virtaul": showing results for "virtual hosts"` {
		t.Errorf("SearchRespelled(virtaul hosts) = %+v, %v", p, err)
	}
	for _, q := range []Query{{Text: "hosts"}, {Text: "virtaul hosts", Offset: 10}} {
		searched = nil
		if p, err := SearchRespelled(t.Context(), q, v, search); err != nil || len(searched) != 1 || len(p.Notes) != 0 {
			t.Errorf("SearchRespelled(%+v) searched %q, notes %q, %v; want the query as typed alone", q, searched, p.Notes, err)
		}
	}
	delete(matches, "virtual hosts")
	if p, err := SearchRespelled(t.Context(), Query{Text: "virtaul hosts"}, v, search); err != nil || p.Query != "virtaul hosts" || len(p.Notes) != 0 {
		t.Errorf("SearchRespelled with no match either = %+v, %v; want the page as typed", p, err)
	}
}
