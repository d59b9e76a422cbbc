package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// numOf reads the number of an entry (0 if it is none), and checks that its rows in fts and
// fts_anchors are under it.
func numOf(t *testing.T, s *Store, id int64) int64 {
	t.Helper()
	var num, own, anchors int64
	err := s.read.QueryRowContext(t.Context(), `SELECT d.num, (SELECT COUNT(*) FROM fts WHERE rowid = d.num),
		(SELECT COUNT(*) FROM fts_anchors WHERE rowid = d.num) FROM docs d WHERE d.url_id = ?`, id).Scan(&num, &own, &anchors)
	if err != nil {
		return 0
	}
	if own != 1 || anchors != 1 {
		t.Errorf("entry %d (number %d): %d fts rows and %d fts_anchors rows under its number, want 1 and 1", id, num, own, anchors)
	}
	return num
}

// Issue 8 (writing the own text, the indexer's longest step): each entry's FTS5 rows are under a
// number given in the order entries are made (nums.go), so that a chunk's rows are appended
// rather than spread over FTS5's tables by hashed URL IDs. A document fetched again keeps its
// number; a link-only entry made by the refresh gets the next one; an entry that leaves the
// index (rule 27: noindex) loses its number, and gets a new one when it comes back.
func TestEntriesAreNumberedInTheOrderTheyAreIndexed(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	us := addURLs(t, s, 8)
	text := func(i int) string { return fmt.Sprintf("walrus %d", i) }
	commitFetched(t, s, us[3:6], text, false) // committed first: numbered first
	commitFetched(t, s, us[0:3], text, false)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	order := []store.URL{us[3], us[4], us[5], us[0], us[1], us[2]}
	for i, u := range order {
		if got, want := numOf(t, s, u.ID), firstNum+int64(i); got != want {
			t.Errorf("%s: number %d, want %d (the %d-th entry made)", u.URL, got, want, i+1)
		}
	}

	// Fetched again, with a link to a URL never fetched: the same number, and the link-only
	// entry the refresh makes gets the next.
	var b store.Batch
	u := us[4]
	u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
	b.Updates = append(b.Updates, u)
	b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "walrus again"})
	b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[7].URL, Anchor: "narwhal"})
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got := numOf(t, s, us[4].ID); got != firstNum+1 {
		t.Errorf("fetched again: number %d, want %d (kept)", got, firstNum+1)
	}
	if got := numOf(t, s, us[7].ID); got != firstNum+6 {
		t.Errorf("the link-only entry: number %d, want %d (the next)", got, firstNum+6)
	}

	// noindex: out of the index; then indexable again: a new number.
	commitFetched(t, s, us[0:1], text, false)
	if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{fetchedURL(us[0])},
		Documents: []store.Document{{URLID: us[0].ID, Index: false, Title: us[0].URL, Text: "walrus"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got := numOf(t, s, us[0].ID); got != 0 {
		t.Errorf("noindex: number %d, want none (no entry)", got)
	}
	commitFetched(t, s, us[0:1], text, false)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got := numOf(t, s, us[0].ID); got != firstNum+7 {
		t.Errorf("indexable again: number %d, want %d (a new one)", got, firstNum+7)
	}
	st := indexState(t, s)
	if st.fts != 7 || st.anchors != 7 || st.docs != 7 || st.walrus != 6 || st.narwhal != 1 {
		t.Errorf("the index holds %+v, want 7 rows in fts, fts_anchors and docs; walrus in 6, narwhal in 1", st)
	}
	p, err := s.Search(ctx, index.Query{Text: "walrus again", Limit: 10, Now: t0})
	if err != nil || len(p.Results) != 1 || p.Results[0].URL != us[4].URL || len(p.Results[0].Snippet) == 0 {
		t.Errorf("search for the page fetched again: %+v, %v; want %s with a snippet", p.Results, err, us[4].URL)
	}
}

// fetchedURL is u fetched with status 200 at t0.
func fetchedURL(u store.URL) store.URL {
	u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
	return u
}
