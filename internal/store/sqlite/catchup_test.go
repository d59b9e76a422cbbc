package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// TestRefreshMergesBesideTheBacklogsText: RefreshIndex, the catch-up at the end of a crawl, finds
// a backlog of staged documents and the link log of the documents folded before it (half the
// log of a 100 × 200 crawl, 0.3 of its 2.4 s catch-up). The text writer, the fold's longest
// step, writes the backlog's own text while the index writer merges that log (issue 26: the
// catch-up on two cores), where the merge waited for the whole backlog to be folded. The test
// holds the merge's first write to links until the text writer has written a staged document's
// text, and that text until the merge has begun: on the old path no text is written while the
// merge waits, and it fails at its bound.
func TestRefreshMergesBesideTheBacklogsText(t *testing.T) {
	base := filepath.Join(t.TempDir(), "crawl.db")
	buildLinkedStore(t, base) // a link log waiting, nothing staged
	path := copyStore(t, base)
	s, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b store.Batch
	for i := range indexChunk / 2 { // a chunk of the fold, written beside the merge
		b.New = append(b.New, newURL(fmt.Sprintf("http://b.test/p/%d", i), "http://b.test"))
	}
	backlog, err := s.Commit(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(backlog); i += 500 {
		commitFetched(t, s, backlog[i:i+500], func(i int) string { return fmt.Sprint("kelpforest ", i) }, true)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Each side waits for the other, up to bound: the text writer's first row for the merge to
	// begin (on a loaded machine the whole backlog's text was written before the merge read its
	// log, and the test failed), the merge's first write to links for a text row written after
	// it began. Taking turns, in either order, leaves one side waiting out its bound.
	const bound = 20 * time.Second // a failure's wait, not a pause waited out: each side comes in milliseconds
	var (
		merging             = make(chan struct{}) // closed at the merge's first write to links, which is then held
		texted              = make(chan struct{}) // closed at a staged document's text row written while it is
		mergeOnce, textOnce sync.Once
		held                time.Duration // how long the merge was held
		beside              bool          // a staged document's text was written while it was
	)
	wrap := observingRuns(func(q string) {
		switch {
		case strings.HasPrefix(q, "INSERT INTO fts (rowid"):
			textOnce.Do(func() {
				select {
				case <-merging:
					close(texted)
				case <-time.After(bound):
				}
			})
		case strings.HasPrefix(q, "INSERT OR REPLACE INTO links"):
			mergeOnce.Do(func() {
				close(merging)
				start := time.Now()
				select {
				case <-texted:
					beside = true
				case <-time.After(bound):
				}
				held = time.Since(start)
			})
		}
	})
	s, err = Open(t.Context(), path, Options{wrapConn: wrap})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if lag, err := s.IndexLag(t.Context()); err != nil || lag != len(backlog) {
		t.Fatalf("staged before RefreshIndex: %d (%v), want %d", lag, err, len(backlog))
	}
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !beside {
		t.Errorf("RefreshIndex wrote no staged document's text while its merge of the log it found waited (held %v): the merge and the text took turns", held)
	}
	if lag, err := s.IndexLag(t.Context()); err != nil || lag != 0 {
		t.Errorf("staged after RefreshIndex: %d (%v), want 0", lag, err)
	}
	var searchable int
	if err := s.read.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM fts JOIN docs ON docs.num = fts.rowid WHERE fts MATCH 'kelpforest'`).Scan(&searchable); err != nil || searchable != len(backlog) {
		t.Errorf("%d backlog documents in the index after RefreshIndex (%v), want %d", searchable, err, len(backlog))
	}
	var missing int
	if err := s.read.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM docs d WHERE NOT EXISTS (SELECT 1 FROM fts WHERE rowid = d.num)`).Scan(&missing); err != nil || missing != 0 {
		t.Errorf("%d entries without their fts row (%v)", missing, err)
	}
	var orphans int
	if err := s.read.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM fts f WHERE NOT EXISTS (SELECT 1 FROM docs WHERE num = f.rowid)`).Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("%d fts rows of no entry (%v)", orphans, err)
	}
}

// TestAPageStagedAgainWhileItsChunkFoldsKeepsItsEntry: the text side numbers and writes a chunk
// while the fold of the one before is not committed yet (indexStagedLocked), so what the
// committed docs say of a document staged again meanwhile is old: the fold of its first version
// gave it a number the text side must give again, or the page would have two fts rows, one of
// no entry, found by its old words (nums.go: an entry keeps its number while it is one). The
// test holds the first fold until the text side has read the entry numbers of the next chunk.
func TestAPageStagedAgainWhileItsChunkFoldsKeepsItsEntry(t *testing.T) {
	const bound = 20 * time.Second // a failure's wait, not a pause waited out
	var (
		s       *Store
		mu      sync.Mutex
		texts   int // the text writer's fts inserts
		reads   int // the text side's reads of entry numbers
		numbers = make(chan struct{})
		folding bool
		failure string
	)
	var staged []store.URL // set before the first fold
	wrap := observingRuns(func(q string) {
		mu.Lock()
		switch {
		case strings.HasPrefix(q, "INSERT INTO fts (rowid"):
			texts++
			if texts == 1 { // the first chunk's text: its first page is staged again
				st, u := s, staged[0]
				mu.Unlock() // the commit's own statements come here
				u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0.Add(time.Hour)
				b := store.Batch{Updates: []store.URL{u}, Documents: []store.Document{{URLID: u.ID, Index: true, Title: u.URL, Text: "seagrass"}}}
				if _, err := st.Commit(t.Context(), b); err != nil {
					mu.Lock()
					failure = err.Error()
					mu.Unlock()
				}
				return
			}
		case q == sqlNums:
			if reads++; reads == 2 {
				close(numbers)
			}
		case q == sqlOldEntries && !folding:
			folding = true
			mu.Unlock()
			select {
			case <-numbers:
			case <-time.After(bound):
			}
			return
		}
		mu.Unlock()
	})
	path := filepath.Join(t.TempDir(), "crawl.db")
	var err error
	if s, err = Open(t.Context(), path, Options{wrapConn: wrap}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	staged = addURLs(t, s, 8) // two chunks: the page staged again is in the second
	const perDoc = 200 << 10  // about 6 documents a chunk of pendingBytes
	commitFetched(t, s, staged, func(i int) string { return "kelpforest " + strings.Repeat(fmt.Sprintf("filler%c ", 'a'+i), perDoc/8) }, false)
	if _, err := s.IndexPending(t.Context(), 100); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if failure != "" {
		t.Fatal("staging the page again:", failure)
	}
	mu.Unlock()
	if lag, err := s.IndexLag(t.Context()); err != nil || lag != 0 {
		t.Fatalf("staged after IndexPending: %d (%v), want 0: the page staged again was not indexed in the same call", lag, err)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := s.read.QueryRowContext(t.Context(), q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT COUNT(*) FROM fts f WHERE NOT EXISTS (SELECT 1 FROM docs WHERE num = f.rowid)`); n != 0 {
		t.Errorf("%d fts rows of no entry: the page staged again took a second number", n)
	}
	if n := count(`SELECT COUNT(*) FROM fts WHERE fts MATCH 'fillera'`); n != 0 {
		t.Errorf("the page's first text is still found (%d rows)", n)
	}
	if n := count(`SELECT COUNT(*) FROM fts JOIN docs ON docs.num = fts.rowid WHERE fts MATCH 'seagrass' AND docs.url_id = ?`, staged[0].ID); n != 1 {
		t.Errorf("the page's second text: %d entries, want 1", n)
	}
	if n := count(`SELECT COUNT(*) FROM docs`); n != len(staged) {
		t.Errorf("%d entries, want %d", n, len(staged))
	}
}

// TestRefreshMergesTheLogItFoundApartOnlyBeforeTheFirstMerge: RefreshIndex merges the log it
// found beside the backlog's text only while links is empty (firstLog: a crawl short enough
// that no merge ran before its catch-up), then the backlog's log. Once links holds the graph, a
// second merge would write every page of it again (at 1,000,000 pages, for no time saved), so
// the log found waits for the backlog's, and links is written once.
func TestRefreshMergesTheLogItFoundApartOnlyBeforeTheFirstMerge(t *testing.T) {
	base := filepath.Join(t.TempDir(), "crawl.db")
	buildLinkedStore(t, base) // a log of thousands of links, links empty
	for _, c := range []struct {
		name   string
		merged bool // links merged before the log is found
		want   int  // merges (link_log removals) in RefreshIndex
	}{{"links empty", false, 2}, {"links merged before", true, 1}} {
		t.Run(c.name, func(t *testing.T) {
			path := copyStore(t, base)
			s, err := Open(t.Context(), path, Options{MergeRows: 1 << 30})
			if err != nil {
				t.Fatal(err)
			}
			var b store.Batch
			for i := range 20 {
				b.New = append(b.New, newURL(fmt.Sprintf("http://c.test/p/%d", i), "http://c.test"))
			}
			us, err := s.Commit(t.Context(), b)
			if err != nil {
				t.Fatal(err)
			}
			if c.merged {
				if _, err := s.RefreshIndex(t.Context()); err != nil {
					t.Fatal(err)
				}
				commitFetched(t, s, us[:10], func(i int) string { return "eelgrass" }, true)
				if _, err := s.IndexPending(t.Context(), 100); err != nil { // a small log: 10 pages' links
					t.Fatal(err)
				}
			}
			commitFetched(t, s, us[10:], func(i int) string { return "eelgrass" }, true) // the backlog
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			merges := 0
			s, err = Open(t.Context(), path, Options{wrapConn: observingRuns(func(q string) {
				if strings.HasPrefix(q, "DELETE FROM link_log WHERE seq <") {
					mu.Lock()
					merges++
					mu.Unlock()
				}
			})})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if n, _, err := linkLogSize(t.Context(), s.read); err != nil || n == 0 {
				t.Fatalf("link_log holds %d rows (%v) before RefreshIndex, want some", n, err)
			}
			if _, err := s.RefreshIndex(t.Context()); err != nil {
				t.Fatal(err)
			}
			if merges != c.want {
				t.Errorf("RefreshIndex merged %d times, want %d", merges, c.want)
			}
		})
	}
}
