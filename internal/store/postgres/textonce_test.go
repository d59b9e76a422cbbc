package postgres_test

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (PostgreSQL server CPU per page): a page's text is written once, into
// doc_text at Commit, not staged and then copied there by the fold. Before the fold the staged
// row holds no copy of it, and yet an export reads it (EachPage); after the fold search finds
// it. A page fetched again before its first fold is folded with its newest text only, and a
// page that turns noindex loses its text.
func TestPageTextWrittenOnce(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	id := page(t, s, "http://a.test/", "Narwhal", "walrus tusk"+strings.Repeat(" ivory", 1000))
	var copies int
	if err := conn.QueryRow(t.Context(), `SELECT COUNT(*) FROM staged s WHERE s::text LIKE '%walrus%'`).Scan(&copies); err != nil {
		t.Fatal(err)
	}
	if copies != 0 {
		t.Errorf("%d staged rows hold the page's text, want none (it is written once, to doc_text)", copies)
	}
	if got := exportedText(t, s, id); !strings.HasPrefix(got, "walrus tusk") {
		t.Errorf("exported text before the fold %.20q, want the page's", got)
	}
	// Fetched again before the fold: the newest text wins.
	if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{{URLID: id, Index: true, Title: "Narwhal", Text: "beluga song"}}}); err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	if got := resultURLs(searchPage(t, s, "beluga")); len(got) != 1 {
		t.Errorf("beluga after the fold: %q, want the page", got)
	}
	if got := resultURLs(searchPage(t, s, "walrus")); len(got) != 0 {
		t.Errorf("walrus after the fold: %q, want nothing (the older text)", got)
	}
	if got := exportedText(t, s, id); got != "beluga song" {
		t.Errorf("exported text after the fold %q, want %q", got, "beluga song")
	}
	// Noindex: the text goes with the entry.
	if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{{URLID: id, Index: false}}}); err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	var texts int
	if err := conn.QueryRow(t.Context(), `SELECT COUNT(*) FROM doc_text`).Scan(&texts); err != nil {
		t.Fatal(err)
	}
	if texts != 0 {
		t.Errorf("%d doc_text rows after the page turned noindex, want 0", texts)
	}
}

// exportedText returns the text EachPage gives the page of URL ID id.
func exportedText(t *testing.T, s store.Store, id int64) string {
	t.Helper()
	var text string
	if err := s.EachPage(t.Context(), func(p store.Page) error {
		if p.URL.ID == id {
			text = p.Text
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return text
}
