package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// Issue 8 (the write path: write less): folding staged documents into the link graph
// (IndexPending) writes their text once, to the index database's FTS5 table, and never copies
// it anywhere else. The text was written once by the crawl's commit; a fold that rewrote each
// staged row (as setting links = NULL beside folded = 1 did) wrote every page's text a second
// time. Measured on the WALs: after a checkpoint that empties them, the fold of large documents
// must add far less than their text to the crawl database, and to the index database their text
// once (fts's content) with its terms, well under twice the text, and the documents are
// searchable.
func TestFoldDoesNotRewriteStagedText(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	const docs, textBytes = 50, 40 << 10
	text := strings.Repeat("walrus tusks flippers ", textBytes/22)
	commitFetched(t, s, addURLs(t, s, docs), func(int) string { return text }, true)
	checkpoint(t, s)
	if n, err := s.IndexPending(ctx, docs); err != nil || n != docs {
		t.Fatalf("IndexPending = %d, %v; want %d", n, err, docs)
	}
	if wrote, limit := walBytes(t, path), int64(docs*textBytes/4); wrote > limit {
		t.Errorf("the fold of %d documents of %d KB wrote %d bytes to the crawl database's WAL, want at most %d: it copied their text", docs, textBytes>>10, wrote, limit)
	}
	if wrote, limit := walBytes(t, indexPath(path)), int64(docs*textBytes*3/2); wrote > limit {
		t.Errorf("the fold of %d documents of %d KB wrote %d bytes to the index database's WAL, want at most %d: it copied their text besides fts", docs, textBytes>>10, wrote, limit)
	}
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts WHERE fts MATCH 'walrus'`).Scan(&n); err != nil || n != docs {
		t.Fatalf("%d documents match walrus after the fold (%v), want %d", n, err, docs)
	}
	// And the refresh keeps them.
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts WHERE fts MATCH 'walrus'`).Scan(&n); err != nil || n != docs {
		t.Fatalf("%d documents match walrus after the refresh (%v), want %d", n, err, docs)
	}
}

// Issue 8 ("anchor text is folded in by the indexer, not by a refresh that rewrites entries over
// and over"): a page's text is written to the index once per fetch. New links to indexed pages
// change only their anchor text, a row of its own: measured on the WAL, after a checkpoint that
// empties it, indexing pages that link to large documents must add far less than their text.
func TestNewLinksDoNotRewriteTheText(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	const docs, textBytes = 50, 40 << 10
	text := strings.Repeat("walrus tusks flippers ", textBytes/22)
	added := addURLs(t, s, 2*docs)
	large, linking := added[:docs], added[docs:]
	commitFetched(t, s, large, func(int) string { return text }, true)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	checkpoint(t, s)
	var b store.Batch
	for i, u := range linking {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: "index", Text: "see"})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: large[i].URL, Anchor: fmt.Sprintf("narwhal %d", i)})
	}
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if wrote, limit := walBytes(t, Files(path)...), int64(docs*textBytes/4); wrote > limit {
		t.Errorf("indexing %d links to %d documents of %d KB wrote %d bytes to the WAL, want at most %d: it rewrote their text",
			docs, docs, textBytes>>10, wrote, limit)
	}
	// Both are searchable: the text written once, the anchor text written now.
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts WHERE fts MATCH 'walrus'`).Scan(&n); err != nil || n != docs {
		t.Fatalf("%d documents match walrus (%v), want %d", n, err, docs)
	}
	for _, q := range []string{"walrus narwhal", "narwhal 7"} {
		p, err := s.Search(ctx, index.Query{Text: q, Limit: 100, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"walrus narwhal": docs, "narwhal 7": 1}[q]; p.Total != want {
			t.Errorf("search %q finds %d entries, want %d", q, p.Total, want)
		}
	}
}

// Issue 8 (write less on the crawl's path): a commit stages each document's response header
// with its text, in the staged table's append order; the fold moves it to folded, a chunk at a
// time. Issue 26: folded rows are appended in fold order (its rowid), a page fetched again gets
// a new row after every other, not its old place (keyed by URL ID, a hash, each fold wrote a
// page of it at random per document).
func TestHeadersMoveToFoldedAtTheFold(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	added, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test"), newURL("http://a.test/b", "http://a.test")}})
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(u store.URL, contentType string) {
		t.Helper()
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		doc := store.Document{URLID: u.ID, Index: true, Title: "walrus", Text: "tusks",
			Header: map[string][]string{"Content-Type": {contentType}}}
		if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{u}, Documents: []store.Document{doc}}); err != nil {
			t.Fatal(err)
		}
	}
	type row struct {
		seq    int64
		header string
	}
	rows := func() map[int64]row {
		t.Helper()
		out := map[int64]row{}
		r, err := s.read.QueryContext(ctx, `SELECT seq, url_id, header FROM folded`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var id int64
			var x row
			var h []byte
			if err := r.Scan(&x.seq, &id, &h); err != nil {
				t.Fatal(err)
			}
			x.header = store.DecodeHeader(h).Get("Content-Type")
			out[id] = x
		}
		return out
	}
	fetch(added[0], "text/html")
	if n := len(rows()); n != 0 {
		t.Errorf("the commit wrote %d folded rows, want 0 (the fold writes them)", n)
	}
	if _, err := s.IndexPending(ctx, 10); err != nil {
		t.Fatal(err)
	}
	fetch(added[1], "text/plain")
	if _, err := s.IndexPending(ctx, 10); err != nil {
		t.Fatal(err)
	}
	first := rows()
	if len(first) != 2 || first[added[0].ID].header != "text/html" || first[added[0].ID].seq >= first[added[1].ID].seq {
		t.Errorf("after two folds folded holds %+v, want 2 rows, the first page's header text/html, in fold order", first)
	}
	fetch(added[0], "application/xhtml+xml")
	if _, err := s.IndexPending(ctx, 10); err != nil {
		t.Fatal(err)
	}
	again := rows()
	if len(again) != 2 || again[added[0].ID].header != "application/xhtml+xml" || again[added[0].ID].seq <= again[added[1].ID].seq {
		t.Errorf("after the first page's fetch again folded holds %+v, want 2 rows, its new header in a row after the other page's", again)
	}
}

// Issue 8: FTS5 writes its pending terms out as a segment whenever a row's ID is lower than the
// last one written, and URL IDs are hashes: the refresh must write the documents' rows in ID
// order, or each becomes a segment of its own, and merging them cost 3x the tokenizing. With
// merging turned off, the segments one refresh chunk leaves in fts_data (whose row IDs carry the
// segment's ID above bit 37) are counted.
func TestFoldWritesTheIndexInIDOrder(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, q := range []string{`INSERT INTO fts (fts, rank) VALUES ('automerge', 0)`, `INSERT INTO fts (fts, rank) VALUES ('crisismerge', 100000)`} {
		if _, err := s.iconn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const docs = 500
	commitFetched(t, s, addURLs(t, s, docs), func(i int) string { return fmt.Sprintf("walrus %d", i) }, false)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	var segments int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(DISTINCT id >> 37) FROM fts_data WHERE id >> 37 > 0`).Scan(&segments); err != nil {
		t.Fatal(err)
	}
	if segments > 2 {
		t.Errorf("one refresh of %d documents left %d FTS5 segments, want 1 or 2: its rows were not written in ID order", docs, segments)
	}
}

// addURLs commits n new URLs of one origin, http://a.test/p/0 on, and returns their records.
func addURLs(t *testing.T, s *Store, n int) []store.URL {
	t.Helper()
	var b store.Batch
	for i := range n {
		b.New = append(b.New, newURL(fmt.Sprintf("http://a.test/p/%d", i), "http://a.test"))
	}
	added, err := s.Commit(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	return added
}

// commitFetched commits us as fetched, each with a document titled by its URL and of text(i),
// and with next, a link from each to the following one (the last to the first) anchored "next".
func commitFetched(t *testing.T, s *Store, us []store.URL, text func(i int) string, next bool) {
	t.Helper()
	var b store.Batch
	for i, u := range us {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: text(i)})
		if next {
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[(i+1)%len(us)].URL, Anchor: "next"})
		}
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
}

// checkpoint empties the WALs of the crawl and index databases, for a test to measure what
// follows by their size (walBytes).
func checkpoint(t *testing.T, s *Store) {
	t.Helper()
	for _, c := range []*sql.Conn{s.wconn, s.iconn} {
		if _, err := c.ExecContext(t.Context(), "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			t.Fatal(err)
		}
	}
}

// walBytes is the size of the WALs of the databases at paths.
func walBytes(t *testing.T, paths ...string) int64 {
	t.Helper()
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(p + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// Issue 26 part 2 (anchor text rebuilt in bulk): a merge takes its targets in chunks of
// indexChunk, all in one transaction (mergeLogRows). Every entry must still be written once and
// right: here more than three chunks of entries, documents and link-only entries alike, each
// with an anchor text of its own, so that a chunk taken from the wrong place leaves entries
// dirty or with another entry's anchor text.
func TestRefreshWritesEveryEntryChunkByChunk(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	const fetched = 3*indexChunk/2 + 300
	us := addURLs(t, s, 2*fetched+1)
	want := map[int64]string{} // each entry's anchor text
	var b store.Batch
	for i, u := range us[:fetched] {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "walrus"})
		for _, to := range []store.URL{us[i+1], us[fetched+1+i]} {
			anchor := fmt.Sprintf("anchor%d", to.ID)
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: to.URL, Anchor: anchor})
			want[to.ID] = anchor
		}
	}
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	got := 0
	withAnchorTerms(t, s, func(conn *sql.Conn) {
		rows, err := conn.QueryContext(ctx, `SELECT d.url_id, d.inlinks, d.link_only, COALESCE(a.terms, '') FROM docs d
			JOIN fts_anchors_docsize ds ON ds.id = d.num LEFT JOIN `+sqlAnchorTerms+` a ON a.doc = d.num`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var inlinks, linkOnly int
			var anchors string
			if err := rows.Scan(&id, &inlinks, &linkOnly, &anchors); err != nil {
				t.Fatal(err)
			}
			got++
			if w, ok := want[id]; ok && (anchors != w || inlinks != 1) {
				t.Errorf("entry %d (link-only %d): anchor terms %q, %d inlinks; want %q, 1", id, linkOnly, anchors, inlinks, w)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	})
	var dirty int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM dirty`).Scan(&dirty); err != nil {
		t.Fatal(err)
	}
	// Every URL is an entry: the first is a document nothing links to, with no anchor text.
	if got != len(us) || dirty != 0 {
		t.Errorf("%d entries and %d dirty after the refresh, want %d and 0", got, dirty, len(us))
	}
}

// Issue 8 ("a page's text is indexed once per fetch") with RefreshIndex's read-ahead: the fold of
// a backlog of several chunks reads each chunk while the one before commits, and every
// document's own text must still land once, under its own entry's number. Each document here
// says a word of its own.
func TestRefreshFoldsEveryChunkUnderItsOwnEntry(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	const docs = 2*indexChunk + 300
	us := addURLs(t, s, docs)
	word := func(i int) string { return fmt.Sprintf("tusk%d", i) }
	commitFetched(t, s, us, word, false)
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{}
	for i, u := range us {
		want[u.ID] = word(i)
	}
	got := 0
	err := eachRow(ctx, s.read, `SELECT d.url_id, f.body FROM fts f JOIN docs d ON d.num = f.rowid`, nil, func(r *sql.Rows) error {
		var id int64
		var body string
		if err := r.Scan(&id, &body); err != nil {
			return err
		}
		got++
		if body != want[id] {
			t.Errorf("entry %d: own text %q, want %q", id, body, want[id])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != docs {
		t.Errorf("%d fts rows under entries after the fold of %d documents, want %d", got, docs, docs)
	}
}

// Issue 29 (one memory budget: the indexer's share during a crawl) and pendingBytes: IndexPending
// holds one chunk's text at a time, so it reads the next chunk of the stage only once the fold of
// the one before has committed; only RefreshIndex, after the crawl, reads ahead. The test watches
// the statements of every connection: between two reads of the stage there must be a commit of
// a fold (its unstaging in the crawl database, sqlUnstage).
func TestIndexPendingReadsTheNextChunkAfterTheFold(t *testing.T) {
	ctx := context.Background()
	var (
		mu   sync.Mutex
		runs []string
	)
	s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: observingRuns(func(q string) {
		mu.Lock()
		runs = append(runs, q)
		mu.Unlock()
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const docs = 18 // of 200 KB: six to a chunk of pendingBytes
	text := strings.Repeat("walrus tusks flippers ", (200<<10)/22)
	commitFetched(t, s, addURLs(t, s, docs), func(int) string { return text }, false)
	mu.Lock()
	runs = nil
	mu.Unlock()
	if n, err := s.IndexPending(ctx, docs); err != nil || n != docs {
		t.Fatalf("IndexPending = %d, %v; want %d", n, err, docs)
	}
	mu.Lock()
	defer mu.Unlock()
	reads, unfolded := 0, false
	for _, q := range runs {
		switch {
		case q == sqlReadStaged:
			if unfolded {
				t.Fatalf("read %d of the stage began before the chunk of read %d was folded and unstaged: two chunks' text held", reads+1, reads)
			}
			reads++
			unfolded = true
		case q == sqlUnstage:
			unfolded = false
		}
	}
	if reads < 3 {
		t.Errorf("%d reads of the stage, want at least 3 (chunks of pendingBytes): the test saw too few chunks", reads)
	}
}
