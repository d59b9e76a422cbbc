package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// blockedWithin bounds how long the test looks for the Commit it started waiting on the fold's
// row lock; the look ends as soon as it is seen.
const blockedWithin = 10 * time.Second

// Issue 31 part 4 (a page's text written once, by Commit): a fold that holds a document's staged
// row may delete its doc_text row (the document turned noindex), and a Commit of a newer copy
// must not hold that row meanwhile. Commit writes the staged row first, so it waits for the fold
// before it touches doc_text: the fold's DELETE does not wait (here within 100 ms, below
// deadlock_timeout, so that a wait is an error and not a deadlock PostgreSQL breaks), and the
// newer copy is searchable after the next fold.
func TestCommitWaitsForAFoldBeforeItWritesText(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	id := page(t, s, "http://a.test/", "Narwhal", "walrus")
	refresh(t, s)
	if _, err := s.Commit(t.Context(), store.Batch{Documents: []store.Document{{URLID: id, Index: false}}}); err != nil {
		t.Fatal(err)
	}
	fold := schemaConn(t, s) // plays a fold of the noindex copy
	if _, err := fold.Exec(t.Context(), `BEGIN`); err != nil {
		t.Fatal(err)
	}
	defer fold.Exec(context.Background(), `ROLLBACK`)
	if _, err := fold.Exec(t.Context(), `DELETE FROM staged WHERE url_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	var foldPID uint32
	if err := fold.QueryRow(t.Context(), `SELECT pg_backend_pid()`).Scan(&foldPID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Commit(context.Background(), store.Batch{Documents: []store.Document{{URLID: id, Index: true, Title: "Narwhal", Text: "beluga"}}})
		done <- err
	}()
	watch := schemaConn(t, s)
	deadline := time.Now().Add(blockedWithin)
	for {
		var blocked bool
		if err := watch.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE $1::int = ANY(pg_blocking_pids(pid)))`, foldPID).Scan(&blocked); err != nil {
			t.Fatal(err)
		}
		if blocked {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the Commit ended (%v) while the fold held the staged row", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Commit did not wait for the fold within %v", blockedWithin)
		}
	}
	if _, err := fold.Exec(t.Context(), `SET LOCAL lock_timeout = '100ms'`); err != nil {
		t.Fatal(err)
	}
	if _, err := fold.Exec(t.Context(), `DELETE FROM doc_text WHERE url_id = $1`, id); err != nil {
		t.Fatalf("the fold's DELETE of the text, while a Commit of a newer copy waits: %v (the Commit holds the text row)", err)
	}
	if _, err := fold.Exec(t.Context(), `COMMIT`); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	if got := resultURLs(searchPage(t, s, "beluga")); len(got) != 1 {
		t.Errorf("beluga after the newer copy's fold: %q, want the page", got)
	}
}
