package sqlite

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// querySite commits and indexes one page per entry (URL -> text) and returns the store.
func querySite(t *testing.T, pages map[string]string) *Store {
	t.Helper()
	s, _ := openTemp(t)
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for u, text := range pages {
		origin := u[:strings.Index(u[len("http://"):], "/")+len("http://")]
		added, err := s.Commit(t.Context(), store.Batch{New: []store.NewURL{newURL(u, origin)}})
		if err != nil || len(added) != 1 {
			t.Fatalf("commit %s: %v", u, err)
		}
		p := added[0]
		p.State, p.Status, p.FetchedAt = store.StateFetched, 200, at
		if _, err := s.Commit(t.Context(), store.Batch{Updates: []store.URL{p},
			Documents: []store.Document{{URLID: p.ID, Index: true, Title: text, Text: text}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// issue 11 item 4: the query language is what search answers, in every store: "phrase",
// -exclude, OR, prefix*, site:host; malformed input falls back to plain words and says so.
func TestSearchQueryLanguage(t *testing.T) {
	s := querySite(t, map[string]string{
		"http://docs.test/vacuum":       "vacuum reclaims storage occupied by dead tuples",
		"http://docs.test/analyze":      "analyze collects statistics about tables",
		"http://docs.test/full":         "vacuum full rewrites the table storage",
		"http://blog.docs.test/vacuum":  "a blog post about vacuum and storage",
		"http://other.test/storage":     "storage engines compared",
		"http://docs.test/asynchronous": "asynchronous commit trades durability",
	})
	for _, c := range []struct {
		query string
		want  []string
		note  bool
	}{
		{`"dead tuples"`, []string{"http://docs.test/vacuum"}, false},
		{`"tuples dead"`, nil, false},
		{`vacuum -full`, []string{"http://blog.docs.test/vacuum", "http://docs.test/vacuum"}, false},
		{`analyze OR rewrites`, []string{"http://docs.test/analyze", "http://docs.test/full"}, false},
		{`async*`, []string{"http://docs.test/asynchronous"}, false},
		{`storage site:docs.test`, []string{"http://blog.docs.test/vacuum", "http://docs.test/full", "http://docs.test/vacuum"}, false},
		{`storage site:blog.docs.test`, []string{"http://blog.docs.test/vacuum"}, false},
		{`"dead tuples`, []string{"http://docs.test/vacuum"}, true}, // unbalanced quote: plain words
	} {
		p, err := s.Search(t.Context(), index.Query{Text: c.query, Limit: 20})
		if err != nil {
			t.Errorf("%q: %v", c.query, err)
			continue
		}
		var got []string
		for _, r := range p.Results {
			got = append(got, r.URL)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q found %q, want %q", c.query, got, c.want)
		}
		if p.Total != len(c.want) {
			t.Errorf("%q: total %d, want %d", c.query, p.Total, len(c.want))
		}
		if c.note != (len(p.Notes) > 0) {
			t.Errorf("%q: notes %q, want a note: %v", c.query, p.Notes, c.note)
		}
	}
}
