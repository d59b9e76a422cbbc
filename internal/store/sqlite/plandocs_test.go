package sqlite

import (
	"context"
	"database/sql"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 (a store whose cost per page does not grow with the crawl): a merge's anchor
// generation plans each target it touches, and most targets are documents. Reading each one's
// URL row (urls in the crawl database, in discovery order, at a random page per target once the
// table outgrows the index writer's cache) was the largest term of the crawl's CPU that grew from
// 100 × 200 to 1,000 × 200 (planEntries: 7 → 47 µs per page fetched). A document's plan is read
// from the index database alone (planDocs), and must be the plan its URL row gave (planURLs), but
// for the URL itself and whether it is queued again, which decide nothing for a document.
func TestDocumentPlansNeedNoURLRow(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	us := addURLs(t, s, 6)
	// Five documents linking in a ring, and a link to a URL never fetched: a link-only entry,
	// which planDocs must leave out.
	never := us[5]
	var b store.Batch
	for i, u := range us[:5] {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "lorem ipsum"})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[(i+1)%5].URL, Anchor: "next"})
	}
	b.Links = append(b.Links, store.Link{FromID: us[0].ID, To: never.URL, Anchor: "never"})
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	ids := []int64{us[0].ID, us[1].ID, us[2].ID, us[3].ID, us[4].ID, never.ID}

	tx := dirtyTx(t, s, us[1].ID, us[2].ID)
	defer tx.Rollback()
	docs, err := planDocs(ctx, tx, ids)
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[int64]*plan{}
	if err := planURLs(ctx, tx, ids, false, byURL); err != nil {
		t.Fatal(err)
	}
	if p := docs[never.ID]; p != nil {
		t.Errorf("planDocs planned the link-only entry %s as a document: %+v", never.URL, *p)
	}
	if p := byURL[never.ID]; p == nil || !p.had || p.wasDoc {
		t.Fatalf("the link-only entry's plan from its URL row = %+v, want an entry that is no document", p)
	}
	for _, u := range us[:5] {
		got, want := docs[u.ID], byURL[u.ID]
		if got == nil || want == nil || !want.wasDoc {
			t.Fatalf("%s: planDocs %+v, planURLs %+v: want a document's plan from both", u.URL, got, want)
		}
		w := *want
		w.url, w.queued = "", false
		if *got != w {
			t.Errorf("%s: planDocs gave %+v, its URL row gives %+v", u.URL, *got, w)
		}
	}

	// The plans of a merge read no URL row for a document: with us[1]'s removed, it is planned
	// all the same (with its dirty bounds), while the link-only entry still needs its own.
	tx.Rollback()
	if _, err := s.wconn.ExecContext(ctx, `DELETE FROM urls WHERE id IN (?, ?)`, us[1].ID, never.ID); err != nil {
		t.Fatal(err)
	}
	tx = dirtyTx(t, s, us[1].ID, us[2].ID)
	defer tx.Rollback()
	plans, err := planEntries(ctx, tx, ids, false, map[int64]linkChanges{us[1].ID: {adds: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if p := plans[us[1].ID]; p == nil || !p.wasDoc || p.lo != 3 || p.hi != 7 {
		t.Errorf("with its URL row gone, document %s was planned as %+v; want its document's plan, bounds 3..7", us[1].URL, p)
	}
	if p := plans[never.ID]; p != nil {
		t.Errorf("with its URL row gone, link-only entry %s was planned as %+v; want no plan", never.URL, *p)
	}
}

// dirtyTx begins a transaction of the index database, to be rolled back, with dirty rows of
// each kind: bounded's with bounds 3..7, unbounded's without.
func dirtyTx(t *testing.T, s *Store, bounded, unbounded int64) *sql.Tx {
	t.Helper()
	tx, err := s.iconn.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(t.Context(), `INSERT INTO dirty (url_id, lo, hi) VALUES (?, 3, 7), (?, NULL, NULL)`, bounded, unbounded); err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	return tx
}
