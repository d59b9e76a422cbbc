package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
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
	for _, p := range Files(path) {
		if fi, err := os.Stat(p + "-wal"); err == nil {
			t.Errorf("%s-wal is left after Close, %d bytes", filepath.Base(p), fi.Size())
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// Issue 26 (h26b): a WAL that grew while a long transaction read (a checkpoint cannot copy back
// the frames a reader still needs) is truncated when it starts over, down to
// walLimitCheckpoints thresholds, instead of staying at its largest size for the rest of the
// crawl (the crawl database's reached 247 MB at 1,000 origins × 50 pages).
func TestWALShrinksAfterAReaderHeldIt(t *testing.T) {
	ctx := context.Background()
	const threshold = 50 // 4 KiB pages: 200 KiB
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(ctx, path, Options{CheckpointPages: threshold})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	reader, err := s.read.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.ExecContext(ctx, `BEGIN`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRowContext(ctx, `SELECT COUNT(*) FROM urls`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	addBatch := func(from, n int) {
		var b store.Batch
		for i := range n {
			b.New = append(b.New, newURL(fmt.Sprintf("http://a.test/%d/%s", from+i, strings.Repeat("x", 200)), "http://a.test"))
		}
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 8 {
		addBatch(i*500, 500)
	}
	grown := walBytes(t, path)
	limit := int64(walLimitCheckpoints * threshold * checkpointPageBytes)
	if grown <= 2*limit {
		t.Fatalf("the WAL grew to %d bytes only beside the reader, want over %d: the test shows nothing", grown, 2*limit)
	}
	if _, err := reader.ExecContext(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // a checkpoint completes; the next commit starts the WAL over
		addBatch(1_000_000+i, 1)
	}
	if got := walBytes(t, path); got > limit {
		t.Errorf("the WAL is %d bytes after it started over (it had grown to %d), want at most %d", got, grown, limit)
	}
}
