package index

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// relaxVocab holds every word of "custom error pages" and more, "pages" the most often.
func relaxVocab() *fakeVocab {
	return &fakeVocab{
		holds:   map[string]bool{"custom": true, "error": true, "pages": true, "log": true, "how": true, "apache": true},
		entries: map[string]int{"custom": 2, "error": 3, "pages": 4, "log": 4, "apache": 9},
	}
}

// Issue 32, all words but one (relax.go): a query of MinRelaxWords known words is searched
// without the word the most entries hold; phrases, words quoted to require them, prefixes, OR, identifiers, excluded words
// and site: filters stay as typed, and a question stays a question.
func TestRelax(t *testing.T) {
	for _, c := range []struct{ text, want, missing string }{
		{"custom error pages", "custom error", "pages"},
		{"Custom  Error PAGES", "Custom Error", "pages"},                // case and spaces as typed, the word lower-cased
		{"pages custom error log", "custom error log", "pages"},         // among equals (pages, log), the first typed
		{"custom error pages -apache", "custom error -apache", "pages"}, // an excluded word is never dropped
		{`"error pages" custom log`, `"error pages" custom`, "log"},     // nor a phrase
		{"custom error log* pages", "custom error log*", "pages"},
		{"custom apache OR log error pages", "custom apache OR log error", "pages"}, // nor an OR
		{"site:a.test custom error pages", "site:a.test custom error", "pages"},
		{"custom error_log error pages", "custom error_log error", "pages"}, // nor an identifier
		{"how do I make custom error pages", "how do I make custom error", "pages"},
		{"custom pages error pages", "custom error", "pages"},                   // a term typed twice is cut twice
		{`"pages" custom error log`, `"pages" custom error`, "log"},             // a word quoted is required
		{`custom "pages" error pages log`, `custom "pages" error pages`, "log"}, // even if typed plain too
	} {
		v := relaxVocab()
		v.holds["make"], v.holds["error_log"] = true, true
		r, ok, err := Relax(t.Context(), v, c.text)
		if err != nil || !ok || r.Text != c.want || r.Missing != c.missing {
			t.Errorf("Relax(%q) = %+v, %v, %v; want %q missing %q", c.text, r, ok, err, c.want, c.missing)
		}
	}
}

// The rule applies only to a query of at least MinRelaxWords required terms, read in the query
// language, each of whose words some entry holds, with a plain word to drop.
func TestRelaxNotApplied(t *testing.T) {
	for _, text := range []string{
		"custom pages",                       // fewer than MinRelaxWords terms
		"custom error zebra",                 // a word no entry holds: the spelling's
		`"custom error pages"`,               // one phrase
		`custom "error" "pages`,              // malformed: plain words
		`"custom error" "log pages" apache*`, // nothing plain to drop
	} {
		if r, ok, err := Relax(t.Context(), relaxVocab(), text); err != nil || ok {
			t.Errorf("Relax(%q) = %+v, %v, %v; want it not to apply", text, r, ok, err)
		}
	}
	v := relaxVocab()
	v.err = errors.New("broken")
	if _, _, err := Relax(t.Context(), v, "custom error pages"); !errors.Is(err, v.err) {
		t.Errorf("Relax with a failing vocabulary: %v, want it wrapped", err)
	}
}

// SearchRespelled searches a first page of known words that matches nothing once more without
// one word, says so in a note and in Missing, and keeps the query as typed; a relaxed query that
// matches nothing either gives the page as typed, and a query that matches, or a later page, is
// searched once.
func TestSearchRelaxed(t *testing.T) {
	var searched []string
	matches := map[string]int{"custom error": 2, "error pages": 1}
	search := func(_ context.Context, q Query) (Page, error) {
		searched = append(searched, q.Text)
		return Page{Query: q.Text, Total: matches[q.Text], Terms: Parse(q.Text).Terms(), Results: make([]Result, matches[q.Text])}, nil
	}
	p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, relaxVocab(), search)
	if err != nil || p.Query != "custom error pages" || p.Total != 2 || !slices.Equal(p.Missing, []string{"pages"}) ||
		!slices.Equal(p.Notes, []string{`no page holds every word: showing results for "custom error" (Missing: pages)`}) ||
		!slices.Equal(searched, []string{"custom error pages", "custom error"}) {
		t.Errorf("SearchRespelled(custom error pages) = %+v, %v after %q", p, err, searched)
	}
	for _, q := range []Query{{Text: "error pages"}, {Text: "custom error pages", Offset: 10}} {
		searched = nil
		if p, err := SearchRespelled(t.Context(), q, relaxVocab(), search); err != nil || len(searched) != 1 || len(p.Notes) != 0 {
			t.Errorf("SearchRespelled(%+v) searched %q, notes %q, %v; want the query as typed alone", q, searched, p.Notes, err)
		}
	}
	// A relaxed page that counts a match and shows none (PostgreSQL's count of an exclusion by
	// the head alone) is no answer either.
	shown := search
	search = func(ctx context.Context, q Query) (Page, error) {
		p, err := shown(ctx, q)
		p.Results = nil
		return p, err
	}
	if p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, relaxVocab(), search); err != nil ||
		len(p.Notes) != 0 || len(p.Missing) != 0 {
		t.Errorf("SearchRespelled with a relaxed page showing nothing = %+v, %v; want the page as typed", p, err)
	}
	search = shown
	delete(matches, "custom error")
	searched = nil
	if p, err := SearchRespelled(t.Context(), Query{Text: "custom error pages"}, relaxVocab(), search); err != nil ||
		p.Total != 0 || len(p.Notes) != 0 || len(p.Missing) != 0 || len(searched) != 2 {
		t.Errorf("SearchRespelled with no match either = %+v, %v after %q; want the page as typed after one more search", p, err, searched)
	}
}
