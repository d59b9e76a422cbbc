package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// indexChunk bounds how many staged documents, or dirty entries, one indexing transaction
// handles, so that the indexer never holds the one writer for long: the crawl's commits wait
// behind it.
const indexChunk = 500

// IndexPending implements store.Indexer, in transactions of at most indexChunk documents: it
// folds staged documents into links and metadata and marks their entries dirty; RefreshIndex
// writes the FTS5 rows, once per entry however often it changed in between.
func (s *Store) IndexPending(ctx context.Context, max int) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("sqlite: index: %w", ErrReadOnly)
	}
	total := 0
	for total < max {
		n, err := s.indexStaged(ctx, min(indexChunk, max-total))
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, nil
}

// RefreshIndex implements store.Indexer: every staged document, then every dirty entry.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("sqlite: refresh index: %w", ErrReadOnly)
	}
	total := 0
	for _, step := range []func(context.Context, int) (int, error){s.indexStaged, s.refreshDirty} {
		for {
			n, err := step(ctx, indexChunk)
			total += n
			if err != nil {
				return total, err
			}
			if n == 0 {
				break
			}
		}
	}
	return total, nil
}

// IndexLag implements store.Indexer: staged documents not written to FTS5 yet.
func (s *Store) IndexLag(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM staged`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: index lag: %w", err)
	}
	return n, nil
}

// stagedDoc is one row of staged.
type stagedDoc struct {
	id               int64
	index, nosnippet bool
	title, body      string
	unavailableAfter time.Time
	links            []stagedLink
}

// indexStaged folds up to limit unfolded staged documents in one transaction: their outgoing
// links replace the old ones, the targets of old and new links and the documents themselves are
// marked dirty, and the document's metadata row is written. The text stays staged until
// refreshDirty writes the FTS5 row: FTS5 rows are the expensive part, so each is written once per
// refresh, not once per fold and again per anchor change.
func (s *Store) indexStaged(ctx context.Context, limit int) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		docs, err := readStaged(ctx, tx, limit)
		if err != nil || len(docs) == 0 {
			return err
		}
		n = len(docs)
		dirty := map[int64]bool{}
		for _, d := range docs {
			if err := replaceLinks(ctx, tx, d, dirty); err != nil {
				return err
			}
			dirty[d.id] = true
		}
		for _, d := range docs {
			if _, err := tx.ExecContext(ctx, `UPDATE staged SET folded = 1, links = NULL WHERE url_id = ?`, d.id); err != nil {
				return fmt.Errorf("index: fold %d: %w", d.id, err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM docs WHERE url_id = ?`, d.id); err != nil {
				return fmt.Errorf("index: document %d: %w", d.id, err)
			}
			if !d.index {
				continue // rule 27: not searchable, not even as a link-only entry
			}
			e := entry{id: d.id, nosnippet: d.nosnippet, unavailableAfter: d.unavailableAfter}
			if err := e.insertMeta(ctx, tx); err != nil {
				return err
			}
		}
		for id := range dirty {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO dirty (url_id) VALUES (?)`, id); err != nil {
				return fmt.Errorf("index: mark %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: index: %w", err)
	}
	return n, nil
}

func docIDs(docs []stagedDoc) []int64 {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	return ids
}

func readStaged(ctx context.Context, tx writeTx, limit int) ([]stagedDoc, error) {
	rows, err := tx.QueryContext(ctx, `SELECT url_id, idx, '', '', nosnippet, unavailable_after, links
		FROM staged WHERE folded = 0 LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	defer rows.Close()
	var docs []stagedDoc
	for rows.Next() {
		var d stagedDoc
		var idx, nosnippet int
		var ua int64
		var links []byte
		if err := rows.Scan(&d.id, &idx, &d.title, &d.body, &nosnippet, &ua, &links); err != nil {
			return nil, fmt.Errorf("index: read staged: %w", err)
		}
		d.index, d.nosnippet, d.unavailableAfter = idx != 0, nosnippet != 0, fromUnix(ua)
		if d.links, err = decodeLinks(links); err != nil {
			return nil, fmt.Errorf("index: staged document %d: %w", d.id, err)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	return docs, nil
}

// replaceLinks makes d's outgoing links the staged ones, adding the targets of the old and the
// new links to dirty (their anchor text changes).
func replaceLinks(ctx context.Context, tx writeTx, d stagedDoc, dirty map[int64]bool) error {
	rows, err := tx.QueryContext(ctx, `SELECT to_id FROM links WHERE from_id = ?`, d.id)
	if err != nil {
		return fmt.Errorf("index: links of %d: %w", d.id, err)
	}
	for rows.Next() {
		var to int64
		if err := rows.Scan(&to); err != nil {
			rows.Close()
			return fmt.Errorf("index: links of %d: %w", d.id, err)
		}
		dirty[to] = true
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("index: links of %d: %w", d.id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE from_id = ?`, d.id); err != nil {
		return fmt.Errorf("index: links of %d: %w", d.id, err)
	}
	for _, l := range d.links {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO links (from_id, to_id, anchor) VALUES (?, ?, ?)`,
			d.id, l.to, l.anchor); err != nil {
			return fmt.Errorf("index: link from %d: %w", d.id, err)
		}
		dirty[l.to] = true
	}
	return nil
}

// writeFTS removes the FTS5 rows of ids and inserts entries: the last statements of an indexing
// transaction.
func writeFTS(ctx context.Context, tx writeTx, ids []int64, entries []entry) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid = ?`, id); err != nil {
			return fmt.Errorf("index: remove %d: %w", id, err)
		}
	}
	for _, e := range entries {
		if err := e.insertText(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}

// refreshDirty rewrites up to limit dirty entries with their current anchor text, in one
// transaction: a document keeps its title and text; a URL never fetched becomes (or stays) a
// link-only entry while links point to it; a fetched URL without a document (noindex, not 2xx,
// a sitemap) stays out of the index.
func (s *Store) refreshDirty(ctx context.Context, limit int) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		rows, err := tx.QueryContext(ctx, `SELECT url_id FROM dirty LIMIT ?`, limit)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		entries := make([]entry, 0, len(ids))
		for _, id := range ids {
			e, keep, err := planEntry(ctx, tx, id)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE url_id = ?`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM staged WHERE url_id = ? AND folded = 1`, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM docs WHERE url_id = ?`, id); err != nil {
				return err
			}
			if !keep {
				continue
			}
			if err := e.insertMeta(ctx, tx); err != nil {
				return err
			}
			entries = append(entries, e)
		}
		n = len(ids)
		return writeFTS(ctx, tx, ids, entries)
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh index: %w", err)
	}
	return n, nil
}

// planEntry reads what id's entry must be now; keep is false when it must have none.
func planEntry(ctx context.Context, tx writeTx, id int64) (entry, bool, error) {
	var rawURL string
	var fetchedAt int64
	var kind int
	var hasDoc, linkOnly, nosnippet sql.NullInt64
	var ua sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT u.url, u.fetched_at, u.kind, d.url_id IS NOT NULL, d.link_only, d.nosnippet, d.unavailable_after
		FROM urls u LEFT JOIN docs d ON d.url_id = u.id WHERE u.id = ?`, id).
		Scan(&rawURL, &fetchedAt, &kind, &hasDoc, &linkOnly, &nosnippet, &ua)
	if errors.Is(err, sql.ErrNoRows) {
		return entry{}, false, nil
	}
	if err != nil {
		return entry{}, false, fmt.Errorf("entry %d: %w", id, err)
	}
	isDoc := hasDoc.Int64 == 1 && linkOnly.Int64 == 0
	if !isDoc && (fetchedAt != 0 || kind != 0) {
		return entry{}, false, nil // fetched but not searchable, or a sitemap
	}
	anchors, inlinks, err := anchorsOf(ctx, tx, id)
	if err != nil {
		return entry{}, false, err
	}
	e := entry{id: id, anchors: anchors, url: rawURL, inlinks: inlinks, linkOnly: !isDoc}
	if isDoc {
		// A folded staged document is newer than the FTS5 row, if there is one.
		err := tx.QueryRowContext(ctx, `SELECT title, body FROM staged WHERE url_id = ? AND folded = 1`, id).Scan(&e.title, &e.body)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.QueryRowContext(ctx, `SELECT title, body FROM fts WHERE rowid = ?`, id).Scan(&e.title, &e.body)
		}
		if err != nil {
			return entry{}, false, fmt.Errorf("entry %d: %w", id, err)
		}
		e.nosnippet, e.unavailableAfter = nosnippet.Int64 == 1, fromUnix(ua.Int64)
	}
	if !isDoc && inlinks == 0 {
		return entry{}, false, nil // nothing links to it any more: a link-only entry has nothing to stand on
	}
	return e, true, nil
}
