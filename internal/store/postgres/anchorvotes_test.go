package postgres_test

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// A limit on every resource: a search reads a result's anchor votes (fillAnchorVotes, a
// ranking input) from the links to it, and a URL linked from every page of a large site has
// hundreds of thousands; the statement reads at most store.ResultLinks of them for each
// result, however many there are. Here a target has 3 × store.ResultLinks links, each with an
// anchor text of its own, so the anchor texts counted are the links read.
func TestAnchorVotesReadBoundedLinks(t *testing.T) {
	const target = 42
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	if _, err := conn.Exec(t.Context(), `INSERT INTO links (from_id, to_id, anchor)
		SELECT g, $1, 'walrus ' || g FROM generate_series(1000, 999 + $2::int) AS g`, target, 3*store.ResultLinks); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(t.Context(), postgres.SQLAnchorVotes, []int64{target}, store.ResultLinks)
	if err != nil {
		t.Fatal(err)
	}
	anchors := 0
	for rows.Next() {
		anchors++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if anchors == 0 || anchors > store.ResultLinks {
		t.Errorf("the anchor votes of one result with %d links counted %d anchor texts, want 1 to %d (store.ResultLinks)", 3*store.ResultLinks, anchors, store.ResultLinks)
	}
}
