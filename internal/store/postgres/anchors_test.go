package postgres_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 and issue 26 part 2 ("anchor rebuilds in bulk"): a generation rewrites a
// target's anchor text only when its inlink count reaches the next power of two (1, 2, 4, ...),
// so an entry's anchor text is written O(log inlinks) times over a crawl; between two rewrites it
// lacks the newest links. RefreshIndex runs the last generation, which writes every target with
// links not written yet. Each source page arrives in its own generation (MergeAnchors).
func TestAnchorTextRewrittenAtPowersOfTwo(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const target = "http://t.test/target" // never fetched: a link-only entry
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	// After the i-th link (1-based), the anchor words a search finds: those written at the
	// last power of two.
	written := map[int]int{1: 1, 2: 2, 3: 2, 4: 4, 5: 4}
	for i, w := range words {
		page(t, s, fmt.Sprintf("http://s%d.test/page", i), "source", "text", store.Link{To: target, Anchor: w})
		if _, err := s.MergeAnchors(t.Context()); err != nil {
			t.Fatal(err)
		}
		for j, v := range words[:i+1] {
			got := resultURLs(searchPage(t, s, v))
			if want := j < written[i+1]; slices.Contains(got, target) != want {
				t.Errorf("after %d links, search %s found the target: %v, want %v (rewritten at 1, 2, 4)", i+1, v, !want, want)
			}
		}
	}
	refresh(t, s)
	for _, w := range words {
		if got := resultURLs(searchPage(t, s, w)); !slices.Equal(got, []string{target}) {
			t.Errorf("after RefreshIndex, search %s = %q, want [%s]: the last generation writes every link", w, got, target)
		}
	}
}

// Issue 26 part 6 ("a kill during an anchor rebuild"), on PostgreSQL: a generation takes the
// link log and writes what it decides in one transaction, so a crawl process killed during one
// (here its database session, terminated while the generation waits on a row) loses nothing:
// the log is as it was, and the next RefreshIndex writes the anchor text.
func TestAnchorGenerationKilledLosesNothing(t *testing.T) {
	url := pgtest.URL(t)
	s := pgtest.Open(t)
	defer s.Close()
	const target = "http://t.test/target"
	page(t, s, "http://s.test/page", "source", "text", store.Link{To: target, Anchor: "walrus"})
	if _, err := s.IndexPending(t.Context(), 100); err != nil { // the fold: the log holds the target
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	logRows := func() int {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT COUNT(*) FROM `+s.Schema()+`.link_log`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := logRows()
	if before == 0 {
		t.Fatal("the fold left no link_log rows")
	}
	// Hold the target's heads row, so that the generation, past taking the log, waits on it.
	blocker, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blocker.Exec(t.Context(), `INSERT INTO `+s.Schema()+`.heads (url_id, link_only, base) VALUES ($1, true, '')`, store.IDOf(target)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.RefreshIndex(t.Context()); done <- err }()
	// Find the session the held row blocks, and kill it. The wait is on the generation, which
	// cannot end while the row is held: a bounded number of looks, not a pause.
	const looks = 100_000
	killed := false
	for look := 0; !killed; look++ {
		if look == looks {
			t.Fatal("no session waited on the held heads row: the generation never reached it")
		}
		select {
		case err := <-done:
			t.Fatalf("RefreshIndex returned (%v) while the generation should wait on the held row", err)
		default:
		}
		// The looks run in the blocker's transaction, which keeps its first view of
		// pg_stat_activity to its end unless told to drop it: without this, a first look taken
		// before the generation waited saw it never wait.
		if _, err := conn.Exec(t.Context(), `SELECT pg_stat_clear_snapshot()`); err != nil {
			t.Fatal(err)
		}
		rows, _ := conn.Query(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))`)
		terminated, err := pgx.CollectRows(rows, pgx.RowTo[bool])
		if err != nil {
			t.Fatal(err)
		}
		killed = slices.Contains(terminated, true)
	}
	if err := <-done; err == nil {
		t.Fatal("RefreshIndex succeeded though its generation's session was killed")
	}
	if err := blocker.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := logRows(); got != before {
		t.Errorf("after the killed generation, link_log holds %d rows, want the %d it held", got, before)
	}
	refresh(t, s)
	if got := resultURLs(searchPage(t, s, "walrus")); !slices.Equal(got, []string{target}) {
		t.Errorf("after the next RefreshIndex, search walrus = %q, want [%s]", got, target)
	}
}
