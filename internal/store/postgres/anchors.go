package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
)

// Anchor text is rebuilt in bulk, in generations (issue 31 part 4, as issue 26 part 2 and
// internal/store/sqlite/layout-plan.md describe): the fold appends the targets of the links it
// adds or removes to link_log; a generation takes the log, sorted by target, and rewrites a
// target's anchor text (heads.atsv, anchors, top_anchor) only when its inlink count has reached
// twice, or fallen to half, the count of its last rewrite, or is new (0 to 1) or gone (to 0).
// Over a crawl an entry's anchor text is then written O(log inlinks) times, and between two
// rewrites it lacks at most half of its links. The targets a generation leaves behind wait in
// anchor_pending; the last generation (RefreshIndex) rewrites them and every target of the log.
//
// A generation runs when the log reaches anchorLogSize rows (IndexPending) or the caller asks
// for one (RefreshIndex), never on a timer of its own. One process runs a
// generation at a time (an advisory lock per schema); a generation is one transaction that takes
// the log rows with DELETE ... RETURNING (those committed when it starts) and writes what they
// decide, so a crash leaves the log as it was and the next generation does the work again
// (rewrites are idempotent).
const (
	// anchorLogSize is how many link_log rows start a generation from IndexPending.
	anchorLogSize = 100_000
	// anchorBatch is how many targets a generation decides and writes per statement.
	anchorBatch = 5_000
	// anchorLockSalt, with the schema's name, keys the advisory lock of generations.
	anchorLockSalt = "mandelbot anchor generation"
)

// logFull reports whether link_log holds anchorLogSize rows, from its first and last seq: two
// lookups in its primary key, where counting read up to anchorLogSize rows after every fold
// (issue 31 part 4). A generation takes every row committed when it starts, so the rows left are
// those logged since, with seqs from the first of them; the span is at least their count, more
// by the seqs of folds rolled back, so a generation may start a few rows early, never late.
func (s *Store) logFull(ctx context.Context) (bool, error) {
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT COALESCE(max(seq) - min(seq) + 1, 0) FROM link_log`).Scan(&n); err != nil {
		return false, fmt.Errorf("postgres: link log: %w", err)
	}
	return n >= anchorLogSize, nil
}

// The statements a generation runs on a batch of up to anchorBatch targets ($1, sorted): each
// target's inlink count and the count of its last rewrite (dueTargets); the most frequent anchor
// texts of the links to each, up to $2 (writeAnchors); and each target's URL, inlink count, and
// whether it has a document or may get a link-only entry (writeAnchors).
const (
	sqlDueTargets = `SELECT t.id, COALESCE(h.anchors_at, 0),
			(SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = t.id)
		FROM unnest($1::bigint[]) AS t(id) LEFT JOIN heads h ON h.url_id = t.id ORDER BY t.id`
	sqlAnchorTexts = `SELECT to_id, anchor, frag FROM (
			SELECT to_id, anchor, bool_and(fragment) AS frag,
				row_number() OVER (PARTITION BY to_id ORDER BY COUNT(*) DESC, anchor) AS rn
			FROM links WHERE to_id = ANY($1) AND anchor <> '' GROUP BY to_id, anchor) x
		WHERE rn <= $2 ORDER BY to_id, rn`
	sqlEntries = `SELECT u.id, u.url, COUNT(DISTINCT l.from_id), h.url_id IS NOT NULL AND NOT h.link_only,
			u.fetched_at IS NULL AND u.kind = 0
		FROM urls u LEFT JOIN heads h ON h.url_id = u.id LEFT JOIN links l ON l.to_id = u.id
		WHERE u.id = ANY($1) GROUP BY u.id, u.url, h.url_id, h.link_only ORDER BY u.id`
)

// generationPlans makes the rest of tx, a generation's, find its targets' rows through the
// indexes, one lookup per target, never by scanning a whole table: no sequential scans, no hash or
// merge joins, no parallel workers. A batch's cost is then O(anchorBatch), whatever the crawl's
// size. With the planner's own choice (issue 31 part 4, server CPU per page at 200,000 pages),
// 5,000 targets against 207,000 heads rows, 800,000 links and 207,000 URLs were each a scan of
// the whole table (heads hashed, links and urls by two parallel workers): every batch of every
// generation read three of the crawl's largest tables end to end, O(pages) per batch and so
// O(pages²) over a crawl. With these settings the same batch took 98 ms rather than 148, 66 ms
// on one process rather than 160 ms on three, 154 rather than 193 on three.
func generationPlans(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, sqlIndexPlans); err != nil {
		return fmt.Errorf("planner settings: %w", err)
	}
	return nil
}

// sqlIndexPlans sets, for the rest of the transaction, the planner settings generationPlans
// describes.
const sqlIndexPlans = `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
	set_config('enable_mergejoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`

// generation runs one anchor generation over the log as it is now, and returns how many
// targets it rewrote. The last one rewrites every target of the log and of anchor_pending; any
// other only those at a power of two. With wait it waits for another process's generation to
// end; otherwise it leaves the work to that process and returns.
func (s *Store) generation(ctx context.Context, last, wait bool) (int, error) {
	if _, err := s.maintain(ctx); err != nil {
		return 0, err
	}
	total := 0
	for _, take := range []string{
		`DELETE FROM link_log RETURNING to_id`,
		`DELETE FROM anchor_pending RETURNING to_id`,
	} {
		n, err := s.generationStep(ctx, take, last, wait)
		total += n
		if err != nil {
			return total, fmt.Errorf("postgres: anchor generation: %w", err)
		}
		if !last {
			break // anchor_pending waits for the targets' next links, or the last generation
		}
	}
	return total, nil
}

// generationStep takes the rows of the statement take, sorts their targets, and decides, then
// writes, them anchorBatch targets at a time, in one transaction.
func (s *Store) generationStep(ctx context.Context, take string, last, wait bool) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		n = 0
		lock := `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))`
		if wait {
			lock = `SELECT true FROM pg_advisory_xact_lock(hashtextextended($1, 0))`
		}
		var locked bool
		if err := tx.QueryRow(ctx, lock, anchorLockSalt+" "+s.schema).Scan(&locked); err != nil || !locked {
			return err
		}
		rows, _ := tx.Query(ctx, take)
		targets, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil || len(targets) == 0 {
			return err
		}
		if err := generationPlans(ctx, tx); err != nil {
			return err
		}
		slices.Sort(targets) // the log sorted by target, as Nutch's link inversion
		targets = slices.Compact(targets)
		for batch := range slices.Chunk(targets, anchorBatch) {
			rewrite, later := batch, []int64(nil)
			if !last {
				if rewrite, later, err = dueTargets(ctx, tx, batch); err != nil {
					return err
				}
			}
			m, err := s.writeAnchors(ctx, tx, rewrite)
			n += m
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM anchor_pending WHERE to_id = ANY($1)`, rewrite); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO anchor_pending (to_id) SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING`, later); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// dueTargets splits targets (sorted) into those whose anchor text a generation rewrites now
// (their inlink count is new, gone, or at least twice or at most half that of their last
// rewrite) and those that wait.
func dueTargets(ctx context.Context, tx pgx.Tx, targets []int64) (now, later []int64, err error) {
	rows, _ := tx.Query(ctx, sqlDueTargets, targets)
	var id int64
	var at, count int
	_, err = pgx.ForEachRow(rows, []any{&id, &at, &count}, func() error {
		if store.AnchorsDue(at, count) {
			now = append(now, id)
		} else {
			later = append(later, id)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("inlink counts: %w", err)
	}
	return now, later, nil
}

// writeAnchors rewrites the anchor text of targets (sorted) from the links table: a fetched
// document's heads row keeps its base and gets the anchor text; a URL never fetched gets (or
// keeps) a link-only entry while links point to it, and loses it when none do; a fetched URL
// without a document (noindex, not 2xx, a sitemap) has no entry. It returns how many entries
// it wrote.
func (s *Store) writeAnchors(ctx context.Context, tx pgx.Tx, targets []int64) (int, error) {
	if len(targets) == 0 {
		return 0, nil
	}
	anchors, tops := map[int64][]string{}, map[int64]string{}
	rows, _ := tx.Query(ctx, sqlAnchorTexts, targets, store.MaxAnchorsPerURL)
	var id int64
	var a string
	var frag bool
	if _, err := pgx.ForEachRow(rows, []any{&id, &a, &frag}, func() error {
		anchors[id] = append(anchors[id], a)
		if _, ok := tops[id]; !ok && !frag {
			tops[id] = a // anchor text of links to a fragment never titles the page (index/ranking.go)
		}
		return nil
	}); err != nil {
		return 0, fmt.Errorf("anchors: %w", err)
	}
	rows, _ = tx.Query(ctx, sqlEntries, targets)
	var ids, gone []int64
	var counts []int32
	var wURLs, wAnchors, texts, topTexts []string
	var url string
	var count int32
	var isDoc, linkable bool
	if _, err := pgx.ForEachRow(rows, []any{&id, &url, &count, &isDoc, &linkable}, func() error {
		if !isDoc && (!linkable || count == 0) {
			gone = append(gone, id) // nothing to stand on: no document, and no link or never to have one
			return nil
		}
		text := strings.Join(anchors[id], " \u2022 ")
		ids, counts = append(ids, id), append(counts, count)
		wURLs, wAnchors = append(wURLs, urlWords(url)), append(wAnchors, searchWords(text))
		texts, topTexts = append(texts, noControls(text)), append(topTexts, noControls(tops[id]))
		return nil
	}); err != nil {
		return 0, fmt.Errorf("entries: %w", err)
	}
	baseFields, anchorFields := make([][]tsvField, len(ids)), make([][]tsvField, len(ids))
	for i := range ids {
		baseFields[i], anchorFields[i] = []tsvField{{wURLs[i], 'C'}}, []tsvField{{wAnchors[i], 'B'}}
	}
	baseTSV, err := s.vectors(ctx, tx, baseFields)
	if err != nil {
		return 0, err
	}
	anchorTSV, err := s.vectors(ctx, tx, anchorFields)
	if err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM heads WHERE url_id = ANY($1) AND link_only`, gone); err != nil {
		return 0, fmt.Errorf("remove %d link-only entries: %w", len(gone), err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO heads (url_id, link_only, base, atsv, anchors, top_anchor, anchors_at)
		SELECT t.id, true, COALESCE(t.base, `+tsv("t.w_url", "C")+`), COALESCE(t.atsv, `+tsv("t.w_anchors", "B")+`),
			t.anchors, t.top, t.n
		FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::tsvector[], $8::tsvector[])
			AS t(id, w_url, w_anchors, anchors, top, n, base, atsv)
		ON CONFLICT (url_id) DO UPDATE SET atsv = excluded.atsv, anchors = excluded.anchors,
			top_anchor = excluded.top_anchor, anchors_at = excluded.anchors_at`,
		ids, blanked(wURLs, baseTSV), blanked(wAnchors, anchorTSV), texts, topTexts, counts, baseTSV, anchorTSV); err != nil {
		return 0, fmt.Errorf("write the anchor text of %d entries: %w", len(ids), err)
	}
	return len(ids), nil
}
