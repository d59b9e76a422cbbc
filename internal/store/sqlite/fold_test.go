package sqlite

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 8 (the write path: write less): folding staged documents into the link graph
// (IndexPending) must not copy their text again. The text was written once by the crawl's
// commit and is read once more by the refresh; a fold that rewrote each staged row (as setting
// links = NULL beside folded = 1 did) wrote every page's text a second time. Measured on the
// WAL: after a checkpoint that empties it, the fold of large documents must add far less than
// their text.
func TestFoldDoesNotRewriteStagedText(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	const docs, textBytes = 50, 40 << 10
	text := strings.Repeat("walrus tusks flippers ", textBytes/22)
	var b store.Batch
	for i := range docs {
		u := fmt.Sprintf("http://a.test/p/%d", i)
		b.New = append(b.New, newURL(u, "http://a.test"))
	}
	added, err := s.Commit(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	b = store.Batch{}
	for i, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: text})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: added[(i+1)%len(added)].URL, Anchor: "next"})
	}
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.wconn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.IndexPending(ctx, docs); err != nil || n != docs {
		t.Fatalf("IndexPending = %d, %v; want %d", n, err, docs)
	}
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if limit := int64(docs * textBytes / 4); fi.Size() > limit {
		t.Errorf("the fold of %d documents of %d KB wrote %d bytes to the WAL, want at most %d: it copied their text", docs, textBytes>>10, fi.Size(), limit)
	}
	// The folded text is still what the refresh indexes.
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts WHERE fts MATCH 'walrus'`).Scan(&n); err != nil || n != docs {
		t.Fatalf("%d documents match walrus after the refresh (%v), want %d", n, err, docs)
	}
}

// Issue 8 (write less on the crawl's path): a commit stages each document's response header
// with its text, in the staged table's append order; doc_headers, keyed by URL ID (a hash, so a
// page of it at random per document), is written by the fold, a chunk at a time.
func TestHeadersMoveToDocHeadersAtTheFold(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	added, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test")}})
	if err != nil {
		t.Fatal(err)
	}
	u := added[0]
	u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
	doc := store.Document{URLID: u.ID, Index: true, Title: "walrus", Text: "tusks",
		Header: map[string][]string{"Content-Type": {"text/html"}}}
	if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{u}, Documents: []store.Document{doc}}); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM doc_headers`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 0 {
		t.Errorf("the commit wrote %d doc_headers rows, want 0 (the fold writes them)", n)
	}
	if _, err := s.IndexPending(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("after the fold doc_headers holds %d rows, want 1", n)
	}
}
