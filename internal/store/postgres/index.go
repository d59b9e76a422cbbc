package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// indexChunk bounds how many staged documents, or dirty entries, one indexing transaction
// handles.
const indexChunk = 500

// Indexing works as in the SQLite store, and may run in every crawl process at once: each
// transaction takes its staged documents or dirty entries FOR UPDATE SKIP LOCKED, so that two
// indexers share the work instead of waiting for each other.

// IndexPending implements store.Indexer, in transactions of at most indexChunk documents.
func (s *Store) IndexPending(ctx context.Context, max int) (int, error) {
	total := 0
	for total < max {
		n, err := s.indexStaged(ctx, min(indexChunk, max-total), true)
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, nil
}

// RefreshDocuments implements store.Indexer: RefreshIndex; this store writes the link-only
// entries of queued URLs too (the contract allows, and does not require, leaving them).
func (s *Store) RefreshDocuments(ctx context.Context) (int, error) {
	return s.RefreshIndex(ctx)
}

// RefreshIndex implements store.Indexer: every staged document, then every dirty entry. Each
// step ends with a pass that waits for rows another process's indexer holds, so that what was
// committed before the call is searchable when it returns.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) {
	total := 0
	for _, step := range []func(context.Context, int, bool) (int, error){s.indexStaged, s.refreshDirty} {
		for skip := true; ; {
			n, err := step(ctx, indexChunk, skip)
			total += n
			if err != nil {
				return total, err
			}
			if n == 0 {
				if !skip {
					break
				}
				skip = false // the last pass waits for rows locked by another indexer
				continue
			}
			skip = true
		}
	}
	return total, nil
}

// IndexLag implements store.Indexer: staged documents whose text is not searchable yet.
func (s *Store) IndexLag(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM staged`).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: index lag: %w", err)
	}
	return n, nil
}

// lockClause takes rows FOR UPDATE, skipping those another transaction holds when skip is set.
func lockClause(skip bool) string {
	if skip {
		return ` FOR UPDATE SKIP LOCKED`
	}
	return ` FOR UPDATE`
}

// indexStaged folds up to limit unfolded staged documents in one transaction: their outgoing
// links replace the old ones, the targets of old and new links and the documents themselves are
// marked dirty, and each document's metadata row is written (or removed: rule 27). The text stays
// staged until refreshDirty writes the entry.
func (s *Store) indexStaged(ctx context.Context, limit int, skip bool) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		n = 0
		rows, _ := tx.Query(ctx, `SELECT url_id, idx, nosnippet, unavailable_after, links FROM staged
			WHERE NOT folded ORDER BY url_id LIMIT $1`+lockClause(skip), limit)
		var ids, keep, drop, from, to []int64
		var nosnippet []bool
		var ua []pgtype.Timestamptz
		var anchors []string
		var frags []bool
		var id int64
		var idx, ns bool
		var until pgtype.Timestamptz
		var links []byte
		_, err := pgx.ForEachRow(rows, []any{&id, &idx, &ns, &until, &links}, func() error {
			ls, err := store.DecodeLinks(links)
			if err != nil {
				return fmt.Errorf("staged document %d: %w", id, err)
			}
			ids = append(ids, id)
			for _, l := range ls {
				from, to, anchors, frags = append(from, id), append(to, l.To), append(anchors, l.Anchor), append(frags, l.Fragment)
			}
			if idx {
				keep, nosnippet, ua = append(keep, id), append(nosnippet, ns), append(ua, until)
			} else {
				drop = append(drop, id)
			}
			return nil
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		n = len(ids)
		dirty := append(slices.Clone(ids), to...)
		slices.Sort(dirty)
		dirty = slices.Compact(dirty)
		for _, st := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO dirty (url_id) SELECT DISTINCT to_id FROM links WHERE from_id = ANY($1) ORDER BY 1
				ON CONFLICT DO NOTHING`, []any{ids}},
			{`DELETE FROM links WHERE from_id = ANY($1)`, []any{ids}},
			{`INSERT INTO links (from_id, to_id, anchor, fragment) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[])
				ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING`, []any{from, to, anchors, frags}},
			{`INSERT INTO dirty (url_id) SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING`, []any{dirty}},
			{`UPDATE staged SET folded = true, links = NULL WHERE url_id = ANY($1)`, []any{ids}},
			{`DELETE FROM docs WHERE url_id = ANY($1)`, []any{drop}},
			{`DELETE FROM doc_text WHERE url_id = ANY($1)`, []any{drop}},
			{`INSERT INTO docs (url_id, nosnippet, unavailable_after)
				SELECT * FROM unnest($1::bigint[], $2::boolean[], $3::timestamptz[])
				ON CONFLICT (url_id) DO UPDATE SET link_only = false, nosnippet = excluded.nosnippet,
				unavailable_after = excluded.unavailable_after`, []any{keep, nosnippet, ua}},
		} {
			if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
				return fmt.Errorf("fold %d documents: %w", n, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: index: %w", err)
	}
	return n, nil
}

// entry is one searchable row of docs.
type entry struct {
	id                                   int64
	title, anchors, topAnchor, body, url string
	headings                             string
	linkOnly                             bool
	inlinks                              int
}

// refreshDirty rewrites up to limit dirty entries with their current anchor text, in one
// transaction: a document keeps its title and text; a URL never fetched becomes (or stays) a
// link-only entry while links point to it; a fetched URL without a document (noindex, not 2xx,
// a sitemap) stays out of the index.
func (s *Store) refreshDirty(ctx context.Context, limit int, skip bool) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		n = 0
		rows, _ := tx.Query(ctx, `SELECT url_id FROM dirty ORDER BY url_id LIMIT $1`+lockClause(skip), limit)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil || len(ids) == 0 {
			return err
		}
		n = len(ids)
		entries, err := planEntries(ctx, tx, ids)
		if err != nil {
			return err
		}
		keep := make(map[int64]bool, len(entries))
		m := len(entries)
		eids, inlinks := make([]int64, m), make([]int32, m)
		linkOnly := make([]bool, m)
		titles, anchors, tops, bodies := make([]string, m), make([]string, m), make([]string, m), make([]string, m)
		wTitles, wAnchors, wURLs, wBodies := make([]string, m), make([]string, m), make([]string, m), make([]string, m)
		headings := make([]string, m)
		for i, e := range entries {
			keep[e.id] = true
			eids[i], inlinks[i], linkOnly[i] = e.id, int32(e.inlinks), e.linkOnly
			titles[i], anchors[i], tops[i], bodies[i] = noControls(e.title), noControls(e.anchors), noControls(e.topAnchor), noControls(e.body)
			// Four weight classes (index.RankClassWeights): headings share anchor text's, and
			// identifier parts the body's.
			wTitles[i], wAnchors[i], wURLs[i] = searchWords(e.title), searchWords(e.anchors+" \u2022 "+e.headings), urlWords(e.url)
			wBodies[i] = searchWords(e.body + " " + index.IdentifierParts(e.title, e.headings, e.body))
			headings[i] = noControls(e.headings)
		}
		var drop []int64
		for _, id := range ids {
			if !keep[id] {
				drop = append(drop, id)
			}
		}
		for _, st := range []struct {
			sql  string
			args []any
		}{
			{`DELETE FROM dirty WHERE url_id = ANY($1)`, []any{ids}},
			{`DELETE FROM staged WHERE url_id = ANY($1) AND folded`, []any{ids}},
			{`DELETE FROM docs WHERE url_id = ANY($1)`, []any{drop}},
			{`DELETE FROM doc_text WHERE url_id = ANY($1)`, []any{drop}},
			{`INSERT INTO doc_text (url_id, title, anchors, top_anchor, body, headings)
				SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
				ON CONFLICT (url_id) DO UPDATE SET title = excluded.title, anchors = excluded.anchors,
					top_anchor = excluded.top_anchor, body = excluded.body, headings = excluded.headings`,
				[]any{eids, titles, anchors, tops, bodies, headings}},
			{`INSERT INTO docs (url_id, link_only, inlinks, tsv)
				SELECT t.id, t.link_only, t.inlinks,
					setweight(to_tsvector('` + tsConfig + `', t.w_title), 'A') || setweight(to_tsvector('` + tsConfig + `', t.w_anchors), 'B') ||
					setweight(to_tsvector('` + tsConfig + `', t.w_url), 'C') || setweight(to_tsvector('` + tsConfig + `', t.w_body), 'D')
				FROM unnest($1::bigint[], $2::boolean[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
					AS t(id, link_only, inlinks, w_title, w_anchors, w_url, w_body)
				ON CONFLICT (url_id) DO UPDATE SET link_only = excluded.link_only, inlinks = excluded.inlinks,
					tsv = excluded.tsv`,
				[]any{eids, linkOnly, inlinks, wTitles, wAnchors, wURLs, wBodies}},
		} {
			if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
				return fmt.Errorf("write %d entries: %w", n, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: refresh index: %w", err)
	}
	return n, nil
}

// planEntries reads what the entries of ids must be now, in ID order; an ID that must have no
// entry is left out.
func planEntries(ctx context.Context, tx pgx.Tx, ids []int64) ([]entry, error) {
	anchors, tops := map[int64][]string{}, map[int64]string{}
	rows, _ := tx.Query(ctx, `SELECT to_id, anchor, frag FROM (
			SELECT to_id, anchor, bool_and(fragment) AS frag,
				row_number() OVER (PARTITION BY to_id ORDER BY COUNT(*) DESC, anchor) AS rn
			FROM links WHERE to_id = ANY($1) AND anchor <> '' GROUP BY to_id, anchor) x
		WHERE rn <= $2 ORDER BY to_id, rn`, ids, store.MaxAnchorsPerURL)
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
		return nil, fmt.Errorf("anchors: %w", err)
	}
	inlinks := map[int64]int{}
	var c int
	rows, _ = tx.Query(ctx, `SELECT to_id, COUNT(DISTINCT from_id) FROM links WHERE to_id = ANY($1) GROUP BY to_id`, ids)
	if _, err := pgx.ForEachRow(rows, []any{&id, &c}, func() error {
		inlinks[id] = c
		return nil
	}); err != nil {
		return nil, fmt.Errorf("inlinks: %w", err)
	}
	rows, _ = tx.Query(ctx, `SELECT u.id, u.url, u.fetched_at IS NOT NULL, u.kind, d.url_id IS NOT NULL,
			COALESCE(d.link_only, false), s.url_id IS NOT NULL, COALESCE(s.title, x.title, ''), COALESCE(s.body, x.body, ''),
			COALESCE(s.headings, x.headings, '')
		FROM urls u LEFT JOIN docs d ON d.url_id = u.id LEFT JOIN doc_text x ON x.url_id = u.id
		LEFT JOIN staged s ON s.url_id = u.id AND s.folded
		WHERE u.id = ANY($1) ORDER BY u.id`, ids)
	var out []entry
	var url, title, body, headings string
	var fetched, hasDoc, linkOnly, hasStaged bool
	var kind int32
	_, err := pgx.ForEachRow(rows, []any{&id, &url, &fetched, &kind, &hasDoc, &linkOnly, &hasStaged, &title, &body, &headings}, func() error {
		isDoc := hasDoc && !linkOnly
		if !isDoc && (fetched || kind != 0) {
			return nil // fetched but not searchable, or a sitemap
		}
		if !isDoc && inlinks[id] == 0 {
			return nil // nothing links to it any more: a link-only entry has nothing to stand on
		}
		e := entry{id: id, url: url, anchors: strings.Join(anchors[id], " \u2022 "), inlinks: inlinks[id], linkOnly: !isDoc}
		e.topAnchor = tops[id]
		if isDoc {
			e.title, e.body, e.headings = title, body, headings
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("entries: %w", err)
	}
	return out, nil
}
