package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// indexChunk bounds how many staged documents one folding transaction handles.
const indexChunk = 500

// foldWorkers is how many folding transactions one process runs at once. A fold alternates
// between the process (decoding, building tsvectors) and the server (the writes), so one at a
// time keeps neither busy; two share the work as the indexers of several processes do (SKIP
// LOCKED). Issue 31: at the politeness limit a worker's crawl outran its one fold at a time,
// and its exit waited 45 s for the index to catch up.
const foldWorkers = 2

// Indexing may run in every crawl process at once. A fold takes its staged documents FOR UPDATE
// SKIP LOCKED, so that two indexers share the work instead of waiting for each other, and writes
// each document's entry once (its text, and its anchor text as it is then). Anchor text that
// arrives later is written by generations (anchors.go), one process at a time.

// IndexPending implements store.Indexer, in transactions of at most indexChunk documents,
// foldWorkers at once: each folded document is searchable when it returns. Then, if the link
// log has reached anchorLogSize rows and no other process runs one, an anchor generation.
func (s *Store) IndexPending(ctx context.Context, max int) (int, error) {
	if max <= 0 {
		return 0, nil
	}
	total, err := s.foldSkipping(ctx, max)
	if err != nil {
		return total, err
	}
	full, err := s.logFull(ctx)
	if err != nil || !full {
		return total, err
	}
	_, err = s.generation(ctx, false, false)
	return total, err
}

// RefreshIndex implements store.Indexer: every staged document, then the last generation, which
// rewrites the anchor text of every target with links not written yet.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) { return s.foldAndGenerate(ctx, true) }

// foldAndGenerate folds every staged document, then runs an anchor generation over every target
// with links not written yet: exact (every one rewritten), or by the power-of-two rule.
func (s *Store) foldAndGenerate(ctx context.Context, exact bool) (int, error) {
	n, err := s.foldAll(ctx)
	if err != nil {
		return n, err
	}
	m, err := s.generation(ctx, exact, true)
	return n + m, err
}

// foldAll folds every staged document. It ends with a pass that waits for rows another
// process's indexer holds, so that what was committed before the call is searchable when it
// returns.
func (s *Store) foldAll(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := s.foldSkipping(ctx, 0)
		total += n
		if err != nil {
			return total, err
		}
		// The last pass waits for rows locked by another indexer.
		m, err := s.fold(ctx, indexChunk, false)
		total += m
		if err != nil || m == 0 {
			return total, err
		}
	}
}

// foldSkipping folds the staged documents no other transaction holds, up to max of them (0:
// all), in transactions of at most indexChunk, foldWorkers at once. It returns once a fold finds
// none or max are folded, and after the first error (the folds under way end first).
func (s *Store) foldSkipping(ctx context.Context, max int) (int, error) {
	var (
		mu      sync.Mutex
		total   int
		claimed int // documents the folds under way may take
		done    bool
		errs    []error
		wg      sync.WaitGroup
	)
	for range foldWorkers {
		wg.Go(func() {
			for {
				mu.Lock()
				limit := indexChunk
				if max > 0 {
					limit = min(limit, max-total-claimed)
				}
				if done || len(errs) > 0 || limit <= 0 {
					mu.Unlock()
					return
				}
				claimed += limit
				mu.Unlock()
				n, err := s.fold(ctx, limit, true)
				if err == nil && s.upkeep.due(n) {
					_, err = s.maintain(ctx)
				}
				mu.Lock()
				claimed -= limit
				total += n
				if err != nil {
					errs = append(errs, err)
				}
				if n == 0 {
					done = true // nothing left that no one holds
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return total, errors.Join(errs...)
}

// IndexLag implements store.Indexer: staged documents whose text is not searchable yet.
func (s *Store) IndexLag(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM staged`).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: index lag: %w", err)
	}
	return n, nil
}

// lockClause takes the rows of a subquery FOR UPDATE, skipping those another transaction holds
// when skip is set.
func lockClause(skip bool) string {
	if skip {
		return ` FOR UPDATE SKIP LOCKED`
	}
	return ` FOR UPDATE`
}

// tsv renders the SQL of a weighted tsvector of the words in column col.
func tsv(col, weight string) string {
	return `setweight(to_tsvector('` + tsConfig + `', ` + col + `), '` + weight + `')`
}

// fold indexes up to limit staged documents in one transaction, in ID order: their outgoing
// links replace the old ones (the targets of both are appended to link_log, and so are the
// documents), and each document's entry is written (docs and the base of heads, from the text
// Commit wrote to doc_text; its anchor text stays, and is the next generation's), or removed
// with its text when the document must not be searchable (rule 27); the staged rows go.
//
// Four round trips whatever the chunk's size (issue 31: a fold was fifteen, at the politeness
// limit its index trailed the crawl): the staged rows are taken and deleted by one statement,
// their text read by another, the stems this process does not know yet are looked up (none once
// its vocabulary is known), and the writes go as one batch, leaving out those with nothing to
// write.
func (s *Store) fold(ctx context.Context, limit int, skip bool) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		n = 0
		rows, _ := tx.Query(ctx, `WITH s AS (DELETE FROM staged WHERE url_id IN (
					SELECT url_id FROM staged ORDER BY url_id LIMIT $1`+lockClause(skip)+`)
				RETURNING url_id, idx, nosnippet, unavailable_after, links)
			SELECT s.url_id, s.idx, s.nosnippet, s.unavailable_after, s.links, u.url
			FROM s JOIN urls u ON u.id = s.url_id ORDER BY s.url_id`, limit)
		var ids, keep, drop, from, to []int64
		var nosnippet []bool
		var ua []pgtype.Timestamptz
		var anchors []string
		var frags []bool
		var urls []string
		var id int64
		var idx, ns bool
		var until pgtype.Timestamptz
		var links []byte
		var url string
		_, err := pgx.ForEachRow(rows, []any{&id, &idx, &ns, &until, &links, &url}, func() error {
			ls, err := store.DecodeLinks(links)
			if err != nil {
				return fmt.Errorf("staged document %d: %w", id, err)
			}
			ids = append(ids, id)
			for _, l := range ls {
				from, to, anchors, frags = append(from, id), append(to, l.To), append(anchors, l.Anchor), append(frags, l.Fragment)
			}
			if !idx {
				drop = append(drop, id)
				return nil
			}
			keep, nosnippet, ua, urls = append(keep, id), append(nosnippet, ns), append(ua, until), append(urls, url)
			return nil
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		// The text Commit wrote with the staged rows, read now that they are held: a commit of a
		// newer copy waits for this fold before it writes its text (stage).
		wTitles, wHeadings, wURLs, wBodies, err := foldText(ctx, tx, keep, urls)
		if err != nil {
			return fmt.Errorf("fold %d documents: %w", len(ids), err)
		}
		n = len(ids)
		docFields, baseFields := make([][]tsvField, len(keep)), make([][]tsvField, len(keep))
		for i := range keep {
			baseFields[i] = []tsvField{{wTitles[i], 'A'}, {wHeadings[i], 'B'}, {wURLs[i], 'C'}}
			docFields[i] = append(slices.Clone(baseFields[i]), tsvField{wBodies[i], 'D'})
		}
		docTSV, err := s.vectors(ctx, tx, docFields)
		if err != nil {
			return fmt.Errorf("fold %d documents: %w", n, err)
		}
		baseTSV, err := s.vectors(ctx, tx, baseFields)
		if err != nil {
			return fmt.Errorf("fold %d documents: %w", n, err)
		}
		targets := slices.Clone(to)
		slices.Sort(targets)
		targets = slices.Compact(targets)
		from, to, anchors, frags = linkRows(from, to, anchors, frags)
		batch := &pgx.Batch{}
		queue := func(sql string, rows int, args ...any) {
			if rows > 0 {
				batch.Queue(sql, args...)
			}
		}
		// The targets of the old links and of the new, and the documents themselves (a generation
		// writes the anchor text of one fetched since its links came: its heads row is new,
		// anchors_at 0, whatever its count), each once, in the statement that deletes the old
		// links; then the new links, with a plain INSERT: they are distinct (linkRows), and no
		// other fold writes links from these documents while this one holds their staged rows.
		queue(`WITH old AS (DELETE FROM links WHERE from_id = ANY($1) RETURNING to_id)
			INSERT INTO link_log (to_id) SELECT to_id FROM old UNION SELECT unnest($2::bigint[] || $3::bigint[])`,
			n, ids, targets, keep)
		queue(`INSERT INTO links (from_id, to_id, anchor, fragment) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[])`,
			len(from), from, to, anchors, frags)
		queue(`DELETE FROM docs WHERE url_id = ANY($1)`, len(drop), drop)
		queue(`DELETE FROM doc_text WHERE url_id = ANY($1)`, len(drop), drop)
		queue(`DELETE FROM heads WHERE url_id = ANY($1)`, len(drop), drop)
		queue(`INSERT INTO docs (url_id, nosnippet, unavailable_after, tsv)
			SELECT t.id, t.nosnippet, t.ua, COALESCE(t.tsv, `+tsv("t.w_title", "A")+` || `+tsv("t.w_headings", "B")+` || `+
			tsv("t.w_url", "C")+` || `+tsv("t.w_body", "D")+`)
			FROM unnest($1::bigint[], $2::boolean[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::tsvector[])
				AS t(id, nosnippet, ua, w_title, w_headings, w_url, w_body, tsv)
			ON CONFLICT (url_id) DO UPDATE SET nosnippet = excluded.nosnippet,
				unavailable_after = excluded.unavailable_after, tsv = excluded.tsv`,
			len(keep), keep, nosnippet, ua, wTitles, wHeadings, wURLs, blanked(wBodies, docTSV), docTSV)
		queue(`INSERT INTO heads (url_id, link_only, base)
			SELECT t.id, false, COALESCE(t.tsv, `+tsv("t.w_title", "A")+` || `+tsv("t.w_headings", "B")+` || `+tsv("t.w_url", "C")+`)
			FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::tsvector[]) AS t(id, w_title, w_headings, w_url, tsv)
			ON CONFLICT (url_id) DO UPDATE SET link_only = false, base = excluded.base`,
			len(keep), keep, wTitles, wHeadings, wURLs, baseTSV)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return fmt.Errorf("fold %d documents: %w", n, err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: index: %w", err)
	}
	return n, nil
}

// foldText reads the doc_text rows of keep (sorted) and returns what the index sees of each
// document's title, headings, URL (urls, in keep's order) and body with its identifier parts:
// four weight classes (index.RankClassWeights), headings sharing anchor text's and identifier
// parts the body's. A document without a row has no text.
func foldText(ctx context.Context, tx pgx.Tx, keep []int64, urls []string) (titles, headings, wURLs, bodies []string, err error) {
	n := len(keep)
	titles, headings, wURLs, bodies = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, u := range urls {
		wURLs[i] = urlWords(u)
	}
	if n == 0 {
		return titles, headings, wURLs, bodies, nil
	}
	rows, _ := tx.Query(ctx, `SELECT url_id, title, body, headings FROM doc_text WHERE url_id = ANY($1)`, keep)
	var id int64
	var title, body, heading string
	_, err = pgx.ForEachRow(rows, []any{&id, &title, &body, &heading}, func() error {
		if i, ok := slices.BinarySearch(keep, id); ok {
			titles[i], headings[i] = searchWords(title), searchWords(heading)
			bodies[i] = searchWords(body + " " + index.IdentifierParts(title, heading, body))
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("text: %w", err)
	}
	return titles, headings, wURLs, bodies, nil
}

// linkRows returns the rows of the links table the fold writes from its documents' links: in key
// order (from_id, to_id, anchor), each key once; of a link that is there both to a fragment and
// not, the one not to a fragment.
func linkRows(from, to []int64, anchors []string, frags []bool) ([]int64, []int64, []string, []bool) {
	order := make([]int, len(from))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(from[a], from[b]), cmp.Compare(to[a], to[b]), strings.Compare(anchors[a], anchors[b]),
			boolCompare(frags[a], frags[b]))
	})
	var f, t []int64
	var as []string
	var fs []bool
	for k, i := range order {
		if k > 0 {
			if p := order[k-1]; from[p] == from[i] && to[p] == to[i] && anchors[p] == anchors[i] {
				continue
			}
		}
		f, t, as, fs = append(f, from[i]), append(t, to[i]), append(as, anchors[i]), append(fs, frags[i])
	}
	return f, t, as, fs
}

// boolCompare orders false before true.
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// blanked returns words with "" where vs has a tsvector: the text to_tsvector need not see.
func blanked(words []string, vs []tsvector) []string {
	out := make([]string, len(words))
	for i, w := range words {
		if vs[i].bin == nil {
			out[i] = w
		}
	}
	return out
}
