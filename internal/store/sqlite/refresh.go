package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// refreshChunk bounds how many entries one refresh transaction rewrites, so that a long refresh
// never holds the writer for long.
const refreshChunk = 500

// RefreshIndex implements store.Store: every URL whose anchor text changed gets its entry
// rewritten once, however many links arrived.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("sqlite: refresh index: %w", ErrReadOnly)
	}
	total := 0
	for {
		n, err := s.refreshChunk(ctx)
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

func (s *Store) refreshChunk(ctx context.Context) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		rows, err := tx.QueryContext(ctx, `SELECT url_id FROM dirty LIMIT ?`, refreshChunk)
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
		for _, id := range ids {
			if err := refreshEntry(ctx, tx, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE url_id = ?`, id); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh index: %w", err)
	}
	return n, nil
}

// refreshEntry rewrites one URL's entry with its current anchor text: a document keeps its title
// and text; a URL never fetched becomes (or stays) a link-only entry while links point to it; a
// fetched URL without a document (noindex, not 2xx, a sitemap) stays out of the index.
func refreshEntry(ctx context.Context, tx writeTx, id int64) error {
	var rawURL string
	var fetchedAt int64
	var kind int
	var hasDoc, linkOnly, nosnippet sql.NullInt64
	var ua sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT u.url, u.fetched_at, u.kind, d.url_id IS NOT NULL, d.link_only, d.nosnippet, d.unavailable_after
		FROM urls u LEFT JOIN docs d ON d.url_id = u.id WHERE u.id = ?`, id).
		Scan(&rawURL, &fetchedAt, &kind, &hasDoc, &linkOnly, &nosnippet, &ua)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("entry %d: %w", id, err)
	}
	isDoc := hasDoc.Int64 == 1 && linkOnly.Int64 == 0
	if !isDoc && (fetchedAt != 0 || kind != 0) {
		return deleteEntry(ctx, tx, id) // fetched but not searchable, or a sitemap
	}
	anchors, inlinks, err := anchorsOf(ctx, tx, id)
	if err != nil {
		return err
	}
	e := entry{id: id, anchors: anchors, url: rawURL, inlinks: inlinks, linkOnly: !isDoc}
	if isDoc {
		if err := tx.QueryRowContext(ctx, `SELECT title, body FROM fts WHERE rowid = ?`, id).Scan(&e.title, &e.body); err != nil {
			return fmt.Errorf("entry %d: %w", id, err)
		}
		e.nosnippet, e.unavailableAfter = nosnippet.Int64 == 1, fromUnix(ua.Int64)
	}
	if err := deleteEntry(ctx, tx, id); err != nil {
		return err
	}
	if !isDoc && inlinks == 0 {
		return nil // nothing links to it any more: a link-only entry has nothing to stand on
	}
	return e.insert(ctx, tx)
}
