package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Issue 26 (a store whose cost does not grow with the crawl; h26b measured it): Close leaves
// no WAL behind. Every database's WAL is copied back into its file and removed by the last
// connection to close it, which must be one that may write: the index writer attaches the crawl
// database read-only (mode=ro), so if it closes after the crawl's writer, the crawl database's
// WAL stays on disk at its full size. At 1,000 origins × 50 pages that WAL was 247 MB of a
// 567 MB data directory at exit.
func TestCloseLeavesNoWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	commitFetched(t, s, addURLs(t, s, 300), func(i int) string { return fmt.Sprintf("walrus %d", i) }, true)
	if _, err := s.RefreshIndex(ctx); err != nil { // the index writer reads the crawl database
		s.Close()
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, indexPath(path), textPath(path)} {
		if fi, err := os.Stat(p + "-wal"); err == nil {
			t.Errorf("%s-wal is left after Close, %d bytes", filepath.Base(p), fi.Size())
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}
