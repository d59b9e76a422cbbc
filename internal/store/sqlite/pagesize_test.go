package sqlite

import (
	"context"
	"testing"
)

// Issue 11 item 6 (a smaller index): a new index or text database has pageSize pages; issue 26
// (where the writes go): a new crawl database has crawlPageSize pages. The WAL checkpoint
// threshold is still DefaultCheckpointPages 4 KiB pages in bytes, whatever the page size.
func TestNewDatabasePageSizeAndCheckpointBytes(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	var ps, ckpt int
	var mode string
	if err := s.wconn.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	if err := s.wconn.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&ps); err != nil {
		t.Fatal(err)
	}
	if err := s.wconn.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&ckpt); err != nil {
		t.Fatal(err)
	}
	if ps != crawlPageSize {
		t.Errorf("crawl database: page_size = %d, want %d", ps, crawlPageSize)
	}
	if got, want := ckpt*ps, DefaultCheckpointPages*checkpointPageBytes; got != want {
		t.Errorf("wal_autocheckpoint = %d pages of %d = %d bytes, want %d", ckpt, ps, got, want)
	}
	if err := s.iconn.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&ps); err != nil {
		t.Fatal(err)
	}
	if ps != pageSize {
		t.Errorf("index database: page_size = %d, want %d", ps, pageSize)
	}
}

// A new database's writer has writerCacheKiB of page cache (issue 11 item 6: the smaller pages'
// memory).
func TestWriterCache(t *testing.T) {
	s, _ := openTemp(t)
	if got := pragmaInt(t, s, "cache_size"); got != -writerCacheKiB {
		t.Errorf("new database: cache_size = %d, want %d", got, -writerCacheKiB)
	}
}

func pragmaInt(t *testing.T, s *Store, name string) int {
	t.Helper()
	var v int
	if err := s.wconn.QueryRowContext(context.Background(), `PRAGMA `+name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
