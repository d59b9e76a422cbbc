package postgres_test

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4: the fold writes links with a plain INSERT (no ON CONFLICT), so it must
// write each (from, target, anchor) once itself: a page linking to one target with one anchor
// both to a fragment and not, and with repeats, is folded into one row, not to a fragment, and
// a second fetch with the same links replaces them.
func TestFoldWritesEachLinkOnce(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	links := func() []store.Link {
		return []store.Link{
			{To: "http://b.test/x", Anchor: "walrus", Fragment: true},
			{To: "http://b.test/x", Anchor: "walrus"},
			{To: "http://b.test/x", Anchor: "walrus", Fragment: true},
			{To: "http://b.test/y", Anchor: "tusk"},
		}
	}
	id := page(t, s, "http://a.test/", "Narwhal", "tusk", links()...)
	refresh(t, s)
	for round := range 2 {
		var rows, frags int
		if err := conn.QueryRow(t.Context(), `SELECT COUNT(*), COUNT(*) FILTER (WHERE fragment) FROM links WHERE from_id = $1`, id).Scan(&rows, &frags); err != nil {
			t.Fatal(err)
		}
		if rows != 2 || frags != 0 {
			t.Errorf("round %d: %d links, %d to a fragment; want 2 and 0", round, rows, frags)
		}
		ls := links()
		for i := range ls {
			ls[i].FromID = id
		}
		if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{{URLID: id, Index: true, Title: "Narwhal", Text: "tusk"}}, Links: ls}); err != nil {
			t.Fatal(err)
		}
		refresh(t, s)
	}
	if got := resultURLs(searchPage(t, s, "walrus")); len(got) != 1 || got[0] != "http://b.test/x" {
		t.Errorf("walrus: %q, want the link-only entry of http://b.test/x", got)
	}
}
