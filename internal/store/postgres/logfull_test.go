package postgres_test

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page): IndexPending starts an anchor generation when link_log
// holds AnchorLogSize rows, which it learns from the log's first and last seq (two index
// lookups) rather than by counting up to AnchorLogSize rows after every fold. One row short, no
// generation; at AnchorLogSize, one, which takes the log; rows logged after it are counted from
// their own first seq, not the log's first ever.
func TestIndexPendingStartsAGenerationAtAFullLog(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	logRows := func(n int) {
		t.Helper()
		if _, err := conn.Exec(t.Context(), `INSERT INTO link_log (to_id) SELECT 1 FROM generate_series(1, $1)`, n); err != nil {
			t.Fatal(err)
		}
	}
	left := func() int {
		t.Helper()
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT COUNT(*) FROM link_log`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	pending := func() {
		t.Helper()
		if _, err := s.IndexPending(t.Context(), 1); err != nil {
			t.Fatal(err)
		}
	}
	logRows(postgres.AnchorLogSize - 1)
	pending()
	if n := left(); n != postgres.AnchorLogSize-1 {
		t.Fatalf("one row short of a full log: %d rows left, want %d (no generation)", n, postgres.AnchorLogSize-1)
	}
	logRows(1)
	pending()
	if n := left(); n != 0 {
		t.Fatalf("a full log: %d rows left, want 0 (a generation took them)", n)
	}
	logRows(10)
	pending()
	if n := left(); n != 10 {
		t.Errorf("10 rows logged after a generation: %d left, want 10 (no generation)", n)
	}
}
