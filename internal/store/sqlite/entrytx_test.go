package sqlite

import (
	"database/sql/driver"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 part 5 (no split that does not earn its keep) and the package doc's crash story: an
// entry's number, its docs row and its own text's FTS5 rows are written in one transaction of
// one writer, the fold's for a fetched page and the merge's for a link-only entry. Then a crash
// can leave no text row under a number no entry holds, and nothing need remove such rows before
// numbers are given again. (Until layout 7 the text had a file and a writer of its own, beside
// the index writer's transactions, and orphan rows to drop.) The test watches every statement
// of every connection and finds, for each insert into fts, the transaction it ran in.
func TestAnEntrysRowsAreWrittenInOneTransaction(t *testing.T) {
	type run struct {
		conn  int
		query string
	}
	var (
		mu    sync.Mutex
		conns int
		runs  []run
	)
	wrap := func(c driver.Conn) (driver.Conn, error) {
		mu.Lock()
		conns++
		id := conns
		mu.Unlock()
		return observingRuns(func(q string) {
			mu.Lock()
			runs = append(runs, run{id, q})
			mu.Unlock()
		})(c)
	}
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: wrap})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	us := addURLs(t, s, 4)
	commitFetched(t, s, us[:2], func(int) string { return "walrus" }, false)
	// A link to a URL never fetched: the merge makes its link-only entry, with an fts row.
	u := fetchedURL(us[2])
	if _, err := s.Commit(t.Context(), store.Batch{Updates: []store.URL{u},
		Documents: []store.Document{{URLID: u.ID, Index: true, Title: "index", Text: "see"}},
		Links:     []store.Link{{FromID: u.ID, To: us[3].URL, Anchor: "narwhal"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	open := map[int][]string{} // each connection's statements since its BEGIN
	textTx, entryTx := 0, 0
	for _, r := range runs {
		switch q := strings.TrimSpace(r.query); {
		case strings.HasPrefix(q, "BEGIN"):
			open[r.conn] = []string{}
		case q == "COMMIT":
			tx := open[r.conn]
			delete(open, r.conn)
			writesText, writesDocs := false, false
			for _, s := range tx {
				writesText = writesText || strings.HasPrefix(s, "INSERT INTO fts ")
				writesDocs = writesDocs || strings.HasPrefix(s, sqlInsertDocs)
			}
			if writesText {
				textTx++
				if writesDocs {
					entryTx++
				}
			}
		default:
			if tx, ok := open[r.conn]; ok {
				open[r.conn] = append(tx, q)
			}
		}
	}
	if textTx == 0 {
		t.Fatal("no transaction inserted fts rows: the test saw no fold")
	}
	if entryTx != textTx {
		t.Errorf("%d of the %d transactions that inserted fts rows wrote docs rows too, want all: an entry's text committed apart from its number and docs row", entryTx, textTx)
	}
}
