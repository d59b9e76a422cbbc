package postgres_test

import (
	"slices"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// marks returns the words a snippet marks as matches.
func marks(sp []index.Span) []string {
	var out []string
	for _, s := range sp {
		if s.Match {
			out = append(out, s.Text)
		}
	}
	return out
}

// Issue 31 part 4 (search p95): only the shown results' headlines are made, after ranking. What
// a result shows must not change: a document whose text has the word in a sentence shows that
// sentence (issue 32 part 4); one whose word only the stemmer finds ("generously" for
// "generous") shows ts_headline's fragment; a link-only entry its anchor text; a document under
// nosnippet nothing.
func TestSearchSnippetsOfShownResults(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	page(t, s, "http://a.test/gift", "Gifts", "They gave generously to all. Nothing else here.")
	page(t, s, "http://b.test/list", "Links", "see below", store.Link{To: "http://c.test/unseen", Anchor: "a generous atlas"})
	page(t, s, "http://d.test/plain", "Plain", "A generous offer was made. Then more words.")
	quiet := page(t, s, "http://e.test/quiet", "Quiet", "first words")
	if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{{URLID: quiet, Index: true, NoSnippet: true,
		Title: "Quiet", Text: "a generous secret"}}}); err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	p := searchPage(t, s, "generous")
	got := map[string][]index.Span{}
	for _, r := range p.Results {
		got[r.URL] = r.Snippet
	}
	if len(got) != 4 {
		t.Fatalf("results %q, want the four pages", resultURLs(p))
	}
	for url, want := range map[string][]string{
		"http://a.test/gift":   {"generously"},
		"http://c.test/unseen": {"generous"},
		"http://d.test/plain":  {"generous"},
		"http://e.test/quiet":  nil,
	} {
		if m := marks(got[url]); !slices.Equal(m, want) {
			t.Errorf("%s: snippet %+v marks %q, want %q", url, got[url], m, want)
		}
	}
	if sp := got["http://d.test/plain"]; len(sp) == 0 || sp[0].Text != "A " {
		t.Errorf("the sentence with the word: %+v, want it from its start", sp)
	}
	if len(got["http://e.test/quiet"]) != 0 {
		t.Errorf("nosnippet: %+v, want no snippet", got["http://e.test/quiet"])
	}
}
