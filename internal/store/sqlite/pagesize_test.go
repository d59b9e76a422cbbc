package sqlite

import (
	"context"
	"testing"
)

// Issue 11 item 6 (a smaller index): a new database has pageSize pages, and the WAL checkpoint
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
	if ps != pageSize {
		t.Errorf("page_size = %d, want %d", ps, pageSize)
	}
	if got, want := ckpt*ps, DefaultCheckpointPages*checkpointPageBytes; got != want {
		t.Errorf("wal_autocheckpoint = %d pages of %d = %d bytes, want %d", ckpt, ps, got, want)
	}
}
