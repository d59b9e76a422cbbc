package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"iter"
	"math"
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
// A merge runs when link_log holds mergeLinksRows rows and a mergeLogShare-th of links' rows
// (IndexPending), and of the whole log in RefreshIndex, never on a timer. It takes the
// whole log, in passes over ranges of targets (mergeLog), and its rows, the links and entries
// they change (the link-only entries' own text with them), and their removal from link_log are
// one transaction of the index database: a crash leaves the log as it was, and the next merge
// does it again.

// mergeLinksRows is the least link_log a merge waits for (about 20,000 pages' links), and the
// most log rows one pass of a merge holds in memory (mergeLink: 48 bytes and the anchor each,
// about 15 MiB), with one chunk of its targets' entries.
const mergeLinksRows = 200_000

// mergeLogShare sizes merges to links (issue 26, layout-plan.md "Merges sized to links"):
// IndexPending merges once link_log holds at least a mergeLogShare-th of links' rows, so with
// 1, once links would double. A merge writes nearly every page of links its targets fall on,
// so merges of a fixed size wrote links whole once every mergeLinksRows log rows: about 50 times
// over a crawl of 1,000,000 pages, the pages a link cost growing with the crawl. Merges at a
// share of links write it once each time it grows by that share: about (1+1)/1 = 2 times its
// final size over a crawl, whatever its length (a quarter wrote it 5 times:
// TestMergesWriteLinksABoundedNumberOfTimes), and each merge plans every target its log
// touches, nearly every page once the log is large, so fewer merges plan each page fewer times
// (about 7 merges in a crawl of 1,000,000 pages of 8 links, against 15 at a quarter). A merge
// reads its log once however large (logPasses spills it by range of targets: logspill.go). The
// price: anchor text lags by up to half of the links known between merges (RefreshIndex merges
// the whole log).
const mergeLogShare = 1

// sqlLogSpan reads the oldest and newest seq of link_log (two seeks in its primary key): the
// fold appends, and a merge removes the oldest rows, so the rows between are all there.
const sqlLogSpan = `SELECT (SELECT MIN(seq) FROM link_log), (SELECT MAX(seq) FROM link_log)`

// sqlLogRows reads link_log's rows below a seq, in the order they were written (its key): the log
// has no index by target, which the fold would write at random. A merge reads it once, and sorts
// its rows by link in Go (logPasses): SQLite's sorter held a merge's rows in its C heap (the
// writers' temporary files are in memory), outside the Go limit of the memory budget, and a merge
// of mergeLinksRows rows took TestOutsideTheGoLimitFitsItsShares 4.9 MiB over its bound.
const sqlLogRows = `SELECT to_id, from_id, anchor, fragment, added FROM link_log WHERE seq < ? ORDER BY seq`

// sqlLinkRows counts links' rows: a scan of the table, once per process (mergeLeast).
const sqlLinkRows = `SELECT COUNT(*) FROM links`

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

// afterMerge is what a merge does with the entries of the targets whose links it changed.
type afterMerge int

const (
	// rewriteDue rewrites the entries due by the power-of-two rule (rewriteTargets) and leaves
	// the others in dirty: IndexPending's merges.
	rewriteDue afterMerge = iota
	// markDirty rewrites none: every target goes to dirty, its bounds unknown, for rewriteDirty,
	// which plans beside its writes (RefreshIndex: the catch-up's merge took one core while the
	// other stood idle, 85 s of CPU at 1,000,000 pages, a third of it planning).
	markDirty
)

// mergeWhen is how large link_log must be for mergeLinks to merge it.
type mergeWhen int

const (
	// anyLog: any rows (RefreshIndex's last merge, of everything).
	anyLog mergeWhen = iota
	// dueLog: mergeLeast's (IndexPending's merges).
	dueLog
)

// mergeLinks merges the whole of link_log into links, in one transaction of the index database,
// if it holds enough rows (when), doing then with the targets' entries; the caller holds
// indexMu. It returns how many entries it wrote.
func (s *Store) mergeLinks(ctx context.Context, when mergeWhen, then afterMerge) (int, error) {
	written := 0
	var added int64
	err := s.indexTxLocked(ctx, func(ctx context.Context, tx writeTx, _ *func(context.Context, writeTx) error) error {
		written, added = 0, 0
		size, end, err := linkLogSize(ctx, tx)
		if err != nil || size == 0 {
			return err
		}
		if when != anyLog {
			least, err := s.mergeLeast(ctx, tx, when)
			if err != nil || size < least {
				return err
			}
		}
		written, added, err = s.mergeLog(ctx, tx, end, size, then)
		return err
	})
	if err != nil {
		return written, fmt.Errorf("sqlite: merge links: %w", err)
	}
	if s.linkRows >= 0 { // counted: kept by the merges since
		s.linkRows += added
	}
	return written, nil
}

// mergeLeast is how many rows link_log must hold to be merged when: for IndexPending's (dueLog)
// s.mergeRows (mergeLinksRows) and a mergeLogShare-th of links' rows, counted once (s.linkRows)
// and then kept by the merges; with Options.MergeAll, one row.
func (s *Store) mergeLeast(ctx context.Context, tx writeTx, when mergeWhen) (int64, error) {
	if s.linkRows < 0 {
		if err := tx.QueryRowContext(ctx, sqlLinkRows).Scan(&s.linkRows); err != nil {
			return 0, fmt.Errorf("index: links: %w", err)
		}
	}
	switch {
	case s.mergeAll: // counted all the same: the suite's stores run a crawl's statements
		return 1, nil
	}
	return max(s.mergeRows, s.linkRows/mergeLogShare), nil
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

// linkKey is where a link_log row falls in links' key, as far as a merge's passes cut it:
// a target and a linking page, so that every row of one link falls in the same pass.
type linkKey struct{ to, from int64 }

func (l mergeLink) key() linkKey { return linkKey{l.to, l.from} }

func compareKeys(a, b linkKey) int {
	return cmp.Or(cmp.Compare(a.to, b.to), cmp.Compare(a.from, b.from))
}

// mergeLog applies link_log's rows below seq end (size of them) to links, a pass at a time
// (logPasses), and removes them from link_log, in tx. Each pass's rows are applied in target
// order, each link as its last row leaves it, and their targets' entries rewritten (applyLog).
// It returns how many entries it wrote, and how many rows links gained (added less removed; a
// replaced link counts as added).
func (s *Store) mergeLog(ctx context.Context, tx writeTx, end, size int64, then afterMerge) (written int, added int64, err error) {
	for log, err := range logPasses(ctx, tx, end, size, s.passRows, s.path) {
		if err != nil {
			return written, added, err
		}
		w, a, err := s.applyLog(ctx, tx, log, then)
		written, added = written+w, added+a
		if err != nil {
			return written, added, err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM link_log WHERE seq < ?`, end); err != nil {
		return written, added, fmt.Errorf("index: link log: %w", err)
	}
	return written, added, nil
}

// logPasses yields link_log's rows below seq end (size of them) in passes over ranges of
// (target, linking page), in key order, each pass's rows in the order they were written: every
// row once, each pass holding at most limit rows (about half that on average: targets are
// hashes, spread evenly over the ranges), unless one key alone holds more (passOf). It reads the
// log once: a merge of more than one range spills each row to its range's file beside the
// store at path (spill, logspill.go), and each range is then read from its file (each pass
// scanned the whole log before: 2r²/limit rows for a merge of r).
func logPasses(ctx context.Context, tx writeTx, end, size, limit int64, path string) iter.Seq2[[]mergeLink, error] {
	return func(yield func([]mergeLink, error) bool) {
		logRows := func(fn func(mergeLink) error) error { return scanLog(ctx, tx, end, fn) }
		ranges := min(max(1, (2*size+limit-1)/limit), maxSpillFiles)
		if ranges == 1 {
			rangePasses(logRows, int(limit), yield)
			return
		}
		sp, err := spill(path, ranges, logRows)
		if err != nil {
			yield(nil, err)
			return
		}
		defer sp.remove()
		for i := range sp.files {
			if !rangePasses(sp.rows(i), int(limit), yield) {
				return
			}
		}
	}
}

// scanLog calls fn with each row of link_log below seq end, in the order they were written.
func scanLog(ctx context.Context, tx writeTx, end int64, fn func(mergeLink) error) error {
	err := eachRow(ctx, tx, sqlLogRows, []any{end}, func(r *sql.Rows) error {
		var l mergeLink
		if err := r.Scan(&l.to, &l.from, &l.anchor, &l.fragment, &l.added); err != nil {
			return err
		}
		return fn(l)
	})
	if err != nil {
		return fmt.Errorf("index: link log: %w", err)
	}
	return nil
}

// rangePasses yields the rows of one range (rows, which calls its fn with each in the order
// they were written) in passes in key order, each holding at most limit rows unless one key
// alone holds more (passOf), reading rows again for each pass after the first; it reports
// whether yield asked for more.
func rangePasses(rows func(fn func(mergeLink) error) error, limit int, yield func([]mergeLink, error) bool) bool {
	lo := linkKey{math.MinInt64, math.MinInt64}
	for {
		log, stop, err := passOf(rows, lo, limit)
		if !yield(log, err) || err != nil {
			return false
		}
		if stop == nil {
			return true
		}
		lo = *stop // the range held too many rows: the next pass goes on from stop
	}
}

// passOf reads the rows of rows from key lo on, in the order they were written, holding at most
// limit of them: when more lie there, it keeps the lowest keys and returns the key its rows stop
// below (stop), for the next pass. Only rows of one (target, linking page) beyond limit can go
// past it.
func passOf(rows func(fn func(mergeLink) error) error, lo linkKey, limit int) (log []mergeLink, stop *linkKey, err error) {
	err = rows(func(l mergeLink) error {
		if compareKeys(l.key(), lo) < 0 || stop != nil && compareKeys(l.key(), *stop) >= 0 {
			return nil
		}
		log = append(log, l)
		if len(log) >= limit {
			var cut linkKey
			var ok bool
			if log, cut, ok = cutLog(log, limit/2); ok {
				stop = &cut
			} else {
				limit *= 2 // one key holds them all: nothing to cut
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return log, stop, nil
}

// cutLog sorts log by key, each key's rows kept in the order they were read, and keeps the rows
// below the key of its (keep)th row (or, if that is its first key, the next key): it returns them
// and that key, or log and false if all its rows are of one key.
func cutLog(log []mergeLink, keep int) ([]mergeLink, linkKey, bool) {
	slices.SortStableFunc(log, func(a, b mergeLink) int { return compareKeys(a.key(), b.key()) })
	i, first := keep, log[0].key()
	for i < len(log) && log[i].key() == first {
		i++
	}
	if i == len(log) {
		return log, linkKey{}, false
	}
	cut := log[i].key()
	for i > 0 && log[i-1].key() == cut {
		i--
	}
	return log[:i], cut, true
}

// applyLog applies a pass's log rows to links, in target order (each link as its last row leaves
// it), and does then with their targets' entries, in tx. It returns how many entries it wrote
// and how many rows links gained.
func (s *Store) applyLog(ctx context.Context, tx writeTx, log []mergeLink, then afterMerge) (int, int64, error) {
	if len(log) == 0 {
		return 0, 0, nil
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
			return 0, 0, fmt.Errorf("index: remove a link: %w", err)
		}
	}
	for chunk := range slices.Chunk(adds, maxBulkRows) { // the rows' values are boxed a chunk at a time
		values := make([][]any, len(chunk))
		for i, l := range chunk {
			values[i] = []any{l.to, l.from, l.anchor, l.fragment}
		}
		if err := insertRows(ctx, tx, `INSERT OR REPLACE INTO links (to_id, from_id, anchor, fragment)`, 4, values); err != nil {
			return 0, 0, fmt.Errorf("index: links: %w", err)
		}
	}
	gained := int64(len(adds) - len(removes))
	if then == markDirty {
		return 0, gained, markTargets(ctx, tx, targets)
	}
	written, err := s.rewriteTargets(ctx, tx, targets, changes)
	return written, gained, err
}

// markTargets puts targets (in key order) in dirty with unknown bounds, for rewriteDirty, which
// reads each one's links whatever its row said.
func markTargets(ctx context.Context, tx writeTx, targets []int64) error {
	for chunk := range slices.Chunk(targets, maxBulkRows) {
		values := make([][]any, len(chunk))
		for i, id := range chunk {
			values[i] = []any{id, nil, nil}
		}
		if err := insertRows(ctx, tx, sqlMarkDirty, 3, values); err != nil {
			return fmt.Errorf("index: dirty entries: %w", err)
		}
	}
	return nil
}
