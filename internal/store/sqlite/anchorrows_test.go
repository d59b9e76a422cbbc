package sqlite

import (
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// Layout 6 (fts.go, issue 26 "What still grows": every generation rewrote anchor rows at random
// entry numbers, and their text pages with them): fts_anchors keeps its terms and not its text,
// so a rewrite deletes a row by its rowid without reading the old text back, and no table of
// the index database holds a copy of the anchor rows. The rows are still replaced: the old
// anchor word finds nothing once the links that gave it are gone.
func TestAnchorRowsKeepNoText(t *testing.T) {
	s, _ := openTemp(t)
	added, err := s.Commit(t.Context(), store.Batch{New: []store.NewURL{newURL("http://c.test/", "http://c.test"), newURL("http://c.test/b", "http://c.test")}})
	if err != nil {
		t.Fatal(err)
	}
	home := added[0]
	home.State, home.Status, home.FetchedAt = store.StateFetched, 200, t0
	commit := func(anchor string) {
		t.Helper()
		if _, err := s.Commit(t.Context(), store.Batch{Updates: []store.URL{home},
			Documents: []store.Document{{URLID: home.ID, Index: true, Title: "home", Text: "nothing here"}},
			Links:     []store.Link{{FromID: home.ID, To: "http://c.test/b", Anchor: anchor}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RefreshIndex(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	commit("walrus tusks")
	commit("narwhal horns")
	var content int
	var text any
	if err := s.read.QueryRowContext(t.Context(), `SELECT (SELECT COUNT(*) FROM `+indexSchemaName+`.sqlite_master WHERE name = 'fts_anchors_content'),
		(SELECT anchors FROM fts_anchors LIMIT 1)`).Scan(&content, &text); err != nil {
		t.Fatal(err)
	}
	if content != 0 || text != nil {
		t.Errorf("fts_anchors has a content table (%d) or gives its text back (%v), want neither", content, text)
	}
	for word, want := range map[string]int{"walrus": 0, "narwhal": 1} {
		p, err := s.Search(t.Context(), index.Query{Text: word, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != want {
			t.Errorf("%s: %d results, want %d (the anchor row replaced)", word, p.Total, want)
		}
	}
}
