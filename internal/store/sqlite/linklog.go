package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// The link graph is written twice, each time in the order its B-tree wants (issue 26 part 2):
//
//   - the fold appends what changed in each folded page's links to link_log (foldChunk), in
//     commit order: sequential writes, whatever the targets;
//   - the merge (mergeLinks) takes link_log's oldest rows, sorts them by target, and applies them
//     to links, whose primary key leads with the target (one sort, as Nutch's link inversion
//     does), then takes their targets in the same order to the anchor text's generation
//     (anchors.go), which rewrites those due and leaves the others in dirty. Where each fold
//     wrote its links and dirty marks at random pages of links, of an index of it by target, and
//     of dirty, a merge writes each page it touches once, in order.
//
// A merge runs when link_log holds mergeLinksRows rows (IndexPending), and of the whole log
// in every refresh (refresh), never on a timer. Its rows, the links and entries they change,
// and their removal from link_log are one transaction of the index database (the link-only
// entries' own text is written by the text writer before it: nums.go): a crash leaves the log
// as it was, and the next merge does it again.

// mergeLinksRows is how many link_log rows one merge takes: about 20,000 pages' links. Larger
// merges write fewer pages of links per link (each touched page is written once per merge), and
// hold the index writer longer. Once links outgrows a merge, a merge writes (and its anchor
// text's generation reads) nearly every page of links, of fts_anchors and of docs: at 1,000 × 200
// with 50,000 rows those were 40% of the pages the crawl wrote (BENCHMARKS.md, "Issue 26: where
// the writes go"); 200,000 rows write them a quarter as often. A merge holds its log rows in
// memory (mergeLink: 48 bytes and the anchor each), and one chunk of its targets' entries.
const mergeLinksRows = 200_000

// sqlLogSpan reads the oldest and newest seq of link_log (two seeks in its primary key): the
// fold appends, and a merge removes the oldest rows, so the rows between are all there.
const sqlLogSpan = `SELECT (SELECT MIN(seq) FROM link_log), (SELECT MAX(seq) FROM link_log)`

// sqlLogRows reads link_log's rows below a seq, in the order they were written (its key). The
// merge sorts them by link in Go: SQLite's sorter held a merge's rows in its C heap (the writers'
// temporary files are in memory), outside the Go limit of the memory budget, and a merge of
// mergeLinksRows rows took TestOutsideTheGoLimitFitsItsShares 4.9 MiB over its bound.
const sqlLogRows = `SELECT to_id, from_id, anchor, fragment, added FROM link_log WHERE seq < ? ORDER BY seq`

// linkLogSize reports how many rows link_log holds, and the seq after its newest.
func linkLogSize(ctx context.Context, q rowQuerier) (n, end int64, err error) {
	var lo, hi sql.NullInt64
	if err := q.QueryRowContext(ctx, sqlLogSpan).Scan(&lo, &hi); err != nil {
		return 0, 0, fmt.Errorf("index: link log: %w", err)
	}
	if !lo.Valid {
		return 0, 0, nil
	}
	return hi.Int64 - lo.Int64 + 1, hi.Int64 + 1, nil
}

// mergeLinks merges link_log into links, s.mergeRows rows (mergeLinksRows) per transaction of
// the index database, while it holds at least least rows (all of it with least 1), rewriting
// the targets' entries exactly or by the power-of-two rule (rewriteTargets); the caller holds
// indexMu. It returns how many entries it wrote.
func (s *Store) mergeLinks(ctx context.Context, least int64, exact bool) (int, error) {
	total := 0
	for {
		var n int64
		err := s.indexTxLocked(ctx, func(ctx context.Context, tx writeTx, _ *func(context.Context, writeTx) error) error {
			size, end, err := linkLogSize(ctx, tx)
			if err != nil || size < least || size == 0 {
				return err
			}
			n = min(size, s.mergeRows)
			w, err := s.mergeLogRows(ctx, tx, end-size+n, exact)
			total += w
			return err
		})
		if err != nil {
			return total, fmt.Errorf("sqlite: merge links: %w", err)
		}
		if n == 0 {
			return total, nil
		}
	}
}

// linkChanges counts the links to one target that a merge adds (or replaces) and removes: the
// target's distinct linking pages change by at most that many (anchors.go, inlinksBound).
type linkChanges struct{ adds, removes int }

// mergeLink is a row of link_log as a merge reads it.
type mergeLink struct {
	to, from int64
	anchor   string
	fragment int
	added    int
}

// mergeLogRows applies link_log's rows below seq end to links, in target order (each link as its
// last row leaves it), rewrites their targets' entries (rewriteTargets), and removes the rows, in tx. It returns how many entries it wrote.
func (s *Store) mergeLogRows(ctx context.Context, tx writeTx, end int64, exact bool) (int, error) {
	rows, err := tx.QueryContext(ctx, sqlLogRows, end)
	if err != nil {
		return 0, fmt.Errorf("index: link log: %w", err)
	}
	var log []mergeLink
	for rows.Next() {
		var l mergeLink
		if err := rows.Scan(&l.to, &l.from, &l.anchor, &l.fragment, &l.added); err != nil {
			rows.Close()
			return 0, fmt.Errorf("index: link log: %w", err)
		}
		log = append(log, l)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("index: link log: %w", err)
	}
	// By link, target first; each link's rows stay in the order they were written.
	slices.SortStableFunc(log, func(a, b mergeLink) int {
		return cmp.Or(cmp.Compare(a.to, b.to), cmp.Compare(a.from, b.from), strings.Compare(a.anchor, b.anchor))
	})
	adds := log[:0] // kept in log's own array: the nth add is at most its nth row
	var removes []mergeLink
	var targets []int64
	changes := map[int64]linkChanges{}
	for i, l := range log {
		if i == 0 || l.to != log[i-1].to {
			targets = append(targets, l.to)
		}
		if i+1 < len(log) && l.to == log[i+1].to && l.from == log[i+1].from && l.anchor == log[i+1].anchor {
			continue // the link's last row decides
		}
		c := changes[l.to]
		switch l.added {
		case logAdd:
			adds = append(adds, l)
			c.adds++
		case logRemove:
			removes = append(removes, l)
			c.removes++
		}
		changes[l.to] = c
	}
	for _, r := range removes {
		if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE to_id = ? AND from_id = ? AND anchor = ?`, r.to, r.from, r.anchor); err != nil {
			return 0, fmt.Errorf("index: remove a link: %w", err)
		}
	}
	for chunk := range slices.Chunk(adds, maxBulkRows) { // the rows' values are boxed a chunk at a time
		values := make([][]any, len(chunk))
		for i, l := range chunk {
			values[i] = []any{l.to, l.from, l.anchor, l.fragment}
		}
		if err := insertRows(ctx, tx, `INSERT OR REPLACE INTO links (to_id, from_id, anchor, fragment)`, 4, "", values); err != nil {
			return 0, fmt.Errorf("index: links: %w", err)
		}
	}
	written, err := s.rewriteTargets(ctx, tx, targets, exact, changes)
	if err != nil {
		return written, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM link_log WHERE seq < ?`, end); err != nil {
		return written, fmt.Errorf("index: link log: %w", err)
	}
	return written, nil
}
