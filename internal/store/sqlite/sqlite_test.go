package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func newURL(u, origin string) store.NewURL {
	return store.NewURL{URL: u, Origin: origin, State: store.StateQueued, DiscoveredAt: t0}
}

// The conformance suite checks that such a batch fails and leaves nothing; this checks that the
// error is the package's ErrUnknownURL, for callers that tell it apart.
func TestUnknownUpdateRollsBackTheBatch(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	_, err := s.Commit(ctx, store.Batch{
		New:     []store.NewURL{newURL("http://a.test/x", "http://a.test")},
		Updates: []store.URL{{ID: 999, URL: "http://nowhere/", State: store.StateFetched}},
	})
	if !errors.Is(err, ErrUnknownURL) {
		t.Fatalf("err = %v", err)
	}
	n := 0
	s.EachURL(ctx, func(store.URL) error { n++; return nil })
	if n != 0 {
		t.Fatalf("%d URLs landed from a failed batch", n)
	}
}

// One crawl process per store: a second Open fails until the first closes.
func TestLockIsExclusive(t *testing.T) {
	s, path := openTemp(t)
	if _, err := Open(context.Background(), path, Options{}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
	s2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

// A read-only store reads while another handle holds the write lock, and refuses writes.
func TestReadOnlyBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	w, path := openTemp(t)
	if _, err := w.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test")}}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open beside the writer: %v", err)
	}
	defer r.Close()
	n := 0
	if err := r.EachURL(ctx, func(store.URL) error { n++; return nil }); err != nil || n != 1 {
		t.Fatalf("read %d URLs: %v", n, err)
	}
	if _, err := r.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://b.test/", "http://b.test")}}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write through a read-only store: %v", err)
	}
	if _, err := Open(ctx, path+".missing", Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a missing file must fail, not create it")
	}
}

// inTx checks the context before a transaction begins: a cancelled Commit fails with the
// context's error and writes nothing. Once begun, a commit runs to its end (see inTx).
func TestCommitCancelledBeforeItBegins(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test")}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Commit with a cancelled context: %v, want context.Canceled", err)
	}
	if _, ok, err := s.Origin(t.Context(), "http://a.test"); ok || err != nil {
		t.Fatalf("the cancelled batch created its origin (%v)", err)
	}
	if added, err := s.Commit(t.Context(), store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test")}}); err != nil || len(added) != 1 {
		t.Fatalf("the next Commit: %d URLs, %v", len(added), err)
	}
}

// The writer checkpoints at Options.CheckpointPages 4 KiB pages (DefaultCheckpointPages when
// zero), counted in the crawl database's own pages (crawlPageSize).
func TestCheckpointPages(t *testing.T) {
	for _, c := range []struct{ opt, want int }{{0, DefaultCheckpointPages}, {500, 500}} {
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{CheckpointPages: c.opt})
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := s.wconn.QueryRowContext(t.Context(), `PRAGMA wal_autocheckpoint`).Scan(&got); err != nil || got*crawlPageSize != c.want*checkpointPageBytes {
			t.Errorf("CheckpointPages %d: wal_autocheckpoint %d pages of %d (%v), want %d of %d", c.opt, got, crawlPageSize, err, c.want, checkpointPageBytes)
		}
		s.Close()
	}
}

// Rule 23, as the dashboard and the summary count it: a queued URL of a paused origin counts as
// paused until the pause ends.
func TestCountsShowEffectiveStates(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.Commit(ctx, store.Batch{
		New:     []store.NewURL{newURL("http://a.test/1", "http://a.test"), newURL("http://b.test/1", "http://b.test")},
		Origins: []store.Origin{{Key: "http://a.test", PausedUntil: t0.Add(time.Hour), PauseReason: "answered 503"}},
	}); err != nil {
		t.Fatal(err)
	}
	during, err := s.Counts(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := s.Counts(ctx, t0.Add(2*time.Hour))
	if during[store.StatePaused] != 1 || during[store.StateQueued] != 1 || after[store.StateQueued] != 2 || after[store.StatePaused] != 0 {
		t.Fatalf("during the pause %v, after it %v", during, after)
	}
}

// Issue 8: the search index keeps ftsHashSize bytes of pending terms before it writes a segment
// (schema.go), so that an indexing chunk is a few segments, not dozens to merge.
func TestFTSHashSize(t *testing.T) {
	s, _ := openTemp(t)
	var got int
	if err := s.iconn.QueryRowContext(t.Context(), `SELECT v FROM fts_config WHERE k = 'hashsize'`).Scan(&got); err != nil || got != ftsHashSize {
		t.Errorf("fts hashsize %d (%v), want %d", got, err, ftsHashSize)
	}
	if ftsHashSizeSQL != strconv.Itoa(ftsHashSize) {
		t.Errorf("ftsHashSizeSQL %s, ftsHashSize %d", ftsHashSizeSQL, ftsHashSize)
	}
}
