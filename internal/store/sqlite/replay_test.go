package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// Issue 8 (indexing "replays idempotently after a crash"): the indexer commits the index
// database, then records in the crawl database what it indexed (writer.go, indexTxLocked). A
// crash between those commits, or before the first, leaves work that is done again: the staged
// documents are still staged, or an entry is still dirty without its rows. Doing it again must
// leave the same index: one row per entry in each FTS5 table (the head index, head.go, as many
// rows as fts), and the same search results.
func TestIndexingAgainAfterALostCommitChangesNothing(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	us := addURLs(t, s, 20)
	docs := us[:10]
	text := func(i int) string { return fmt.Sprintf("walrus %d", i) }
	commitFetched(t, s, docs, text, true)
	// A link to a URL never fetched: a link-only entry, searchable by its URL's words.
	var b store.Batch
	b.Updates = append(b.Updates, docs[0])
	b.Updates[0].State, b.Updates[0].Status, b.Updates[0].FetchedAt = store.StateFetched, 200, t0
	b.Documents = append(b.Documents, store.Document{URLID: docs[0].ID, Index: true, Title: docs[0].URL, Text: text(0)})
	b.Links = append(b.Links, store.Link{FromID: docs[0].ID, To: us[15].URL, Anchor: "narwhal"},
		store.Link{FromID: docs[0].ID, To: docs[1].URL, Anchor: "next"})
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	want := indexState(t, s)
	if want.fts != 11 || want.head != 11 || want.anchors != 11 || want.walrus != 10 || want.narwhal != 1 {
		t.Fatalf("after the first indexing: %+v, want 11 rows in each FTS5 table, 10 walrus, 1 narwhal (the link-only entry)", want)
	}

	// The crawl database's commit lost: the documents are staged again, as they were.
	commitFetched(t, s, docs, text, true)
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	// The index database's commit that made the link-only entry lost: it is dirty again and has
	// no docs, fts, head or fts_anchors row, and its number (the highest: it was the last entry
	// made) is given again.
	var lost []string
	for _, table := range []string{"fts_anchors", "fts", "head"} {
		lost = append(lost, `DELETE FROM `+table+` WHERE rowid = (SELECT num FROM docs WHERE url_id = ?)`)
	}
	lost = append(lost, `DELETE FROM docs WHERE url_id = ?`)
	for _, q := range append(lost, `INSERT OR IGNORE INTO dirty (url_id) VALUES (?)`) {
		if _, err := s.iconn.ExecContext(ctx, q, us[15].ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.IndexPending(ctx, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("indexing again: %v", err)
	}
	if got := indexState(t, s); got != want {
		t.Errorf("indexing again left %+v, want %+v", got, want)
	}
	if lag, err := s.IndexLag(ctx); err != nil || lag != 0 {
		t.Errorf("IndexLag = %d, %v; want 0", lag, err)
	}

	// The index database's commit lost again, and before the indexer's next step the page that
	// linked to the link-only entry is fetched again without the link: the entry is made no
	// more.
	for _, q := range lost {
		if _, err := s.iconn.ExecContext(ctx, q, us[15].ID); err != nil {
			t.Fatal(err)
		}
	}
	commitFetched(t, s, docs[:1], text, true)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	want.fts, want.head, want.anchors, want.docs, want.narwhal = 10, 10, 10, 10, 0
	if got := indexState(t, s); got != want {
		t.Errorf("after the link went: %+v, want %+v", got, want)
	}
}

// indexed is what the index holds, counted.
type indexed struct{ fts, head, anchors, docs, walrus, narwhal int }

func indexState(t *testing.T, s *Store) indexed {
	t.Helper()
	var st indexed
	for q, dst := range map[string]*int{
		`SELECT COUNT(*) FROM fts`: &st.fts, `SELECT COUNT(*) FROM head`: &st.head, `SELECT COUNT(*) FROM fts_anchors`: &st.anchors, `SELECT COUNT(*) FROM docs`: &st.docs,
	} {
		if err := s.read.QueryRowContext(t.Context(), q).Scan(dst); err != nil {
			t.Fatal(err)
		}
	}
	for word, dst := range map[string]*int{"walrus": &st.walrus, "narwhal": &st.narwhal} {
		p, err := s.Search(t.Context(), index.Query{Text: word, Limit: 50, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		*dst = p.Total
	}
	return st
}
