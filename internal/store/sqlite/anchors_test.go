package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 8: readAnchors counts anchors and linking pages in Go from one read of links_to. Its
// result must be what the two GROUP BY queries it replaced defined: the distinct non-empty
// anchors most used first (ties in byte order, at most store.MaxAnchorsPerURL), and the number
// of distinct pages linking. The links here give targets few and many distinct anchors (past
// the switch to a map), empty anchors, and pages linking twice with different anchors.
func TestReadAnchorsMatchesGroupBy(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	r := rand.New(rand.NewPCG(8, 8))
	var rows [][]any
	targets := []int64{1, 2, 3, 4, 5}
	for from := int64(100); from < 400; from++ {
		for _, to := range targets {
			if r.IntN(3) == 0 {
				continue
			}
			n := 1 + r.IntN(3)
			for k := range n {
				anchor := ""
				switch {
				case to == 5: // many distinct anchors
					anchor = fmt.Sprintf("anchor %d", r.IntN(60))
				case r.IntN(4) > 0:
					anchor = []string{"home", "next", "Home", "more"}[r.IntN(4)]
				}
				rows = append(rows, []any{from, to, anchor + strings.Repeat(" ", k), 0})
			}
		}
	}
	ids := append(slices.Clone(targets), 6) // 6: nothing links to it
	ictx, unlock, err := s.lockIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	err = s.indexTxLocked(ictx, func(ctx context.Context, tx writeTx, _ *func(context.Context, writeTx) error) error {
		if err := insertRows(ctx, tx, `INSERT OR IGNORE INTO links (from_id, to_id, anchor, fragment)`, 4, rows); err != nil {
			return err
		}
		plans := map[int64]*plan{}
		for _, id := range ids {
			plans[id] = &plan{}
		}
		if err := readAnchors(ctx, tx, idSet(ids), plans); err != nil {
			return err
		}
		for _, id := range ids {
			wantAnchors, wantInlinks := groupByAnchors(ctx, t, tx, id)
			if got := plans[id]; got.anchors != wantAnchors || got.inlinks != wantInlinks {
				t.Errorf("target %d: anchors %q, inlinks %d; want %q, %d", id, got.anchors, got.inlinks, wantAnchors, wantInlinks)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// groupByAnchors is the reference: the SQL that defined an entry's anchors and inlinks.
func groupByAnchors(ctx context.Context, t *testing.T, tx writeTx, id int64) (string, int) {
	t.Helper()
	rows, err := tx.QueryContext(ctx, `SELECT anchor FROM links WHERE to_id = ? AND anchor != ''
		GROUP BY anchor ORDER BY COUNT(*) DESC, anchor LIMIT ?`, id, store.MaxAnchorsPerURL)
	if err != nil {
		t.Fatal(err)
	}
	var as []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	rows.Close()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return strings.Join(as, " \u2022 "), n
}

// Issue 26 part 2 and issue 8: a merge's generation writes the anchor rows of all its targets
// at once, in rowid order, so that it adds one FTS5 segment to fts_anchors however many chunks
// of indexChunk targets it reads (FTS5 writes its pending terms out whenever a rowid is lower
// than the last one written). With merging turned off, the segments one merge of more than two
// chunks' targets leaves in fts_anchors_data are counted (see TestFoldWritesTheIndexInIDOrder).
func TestMergeWritesOneAnchorSegment(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, q := range []string{`INSERT INTO fts_anchors (fts_anchors, rank) VALUES ('automerge', 0)`,
		`INSERT INTO fts_anchors (fts_anchors, rank) VALUES ('crisismerge', 100000)`} {
		if _, err := s.iconn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const docs = 2*indexChunk + 500 // each a target of the merge (its fold's touch, and a link)
	commitFetched(t, s, addURLs(t, s, docs), func(i int) string { return fmt.Sprint("walrus ", i) }, true)
	if _, err := mergeAll(ctx, s); err != nil {
		t.Fatal(err)
	}
	var segments, rows int
	if err := s.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(DISTINCT id >> 37) FROM fts_anchors_data WHERE id >> 37 > 0),
		(SELECT COUNT(*) FROM fts_anchors)`).Scan(&segments, &rows); err != nil {
		t.Fatal(err)
	}
	if rows != docs || segments > 2 {
		t.Errorf("one merge of %d targets left %d anchor rows in %d FTS5 segments, want %d rows in 1 or 2 segments", docs, rows, segments, docs)
	}
}
