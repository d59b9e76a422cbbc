package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
)

// The reads of one batch of EachPage, each over the batch's URL IDs ($1) by an index.
const (
	sqlPageURLs = `SELECT seq, ` + urlColumns + ` FROM urls
		WHERE seq > $1 AND kind = 0 AND fetched_at IS NOT NULL ORDER BY seq LIMIT $2`
	sqlPageHeaders = `SELECT url_id, header FROM doc_headers WHERE url_id = ANY($1)`
	sqlPageStaged  = `SELECT s.url_id, s.idx, COALESCE(d.title, ''), COALESCE(d.body, ''), false, s.links
		FROM staged s LEFT JOIN doc_text d ON d.url_id = s.url_id WHERE s.url_id = ANY($1)`
	sqlPageIndexed = `SELECT url_id, title, body FROM doc_text WHERE url_id = ANY($1)`
	sqlPageLinks   = `SELECT l.from_id, u.url, l.anchor FROM links l JOIN urls u ON u.id = l.to_id
		WHERE l.from_id = ANY($1)`
	sqlURLsByID = `SELECT id, url FROM urls WHERE id = ANY($1)`
)

// EachPage implements store.Reader: store.PageBatch pages at a time, each batch read in one
// repeatable-read transaction (a consistent snapshot), then handed to fn outside it.
func (s *Store) EachPage(ctx context.Context, fn func(store.Page) error) error {
	return store.WalkPages(ctx, func(ctx context.Context, after int64) ([]store.Page, int64, error) {
		pages, last, err := s.pageBatch(ctx, after)
		if err != nil {
			return nil, 0, fmt.Errorf("postgres: list pages: %w", err)
		}
		return pages, last, nil
	}, fn)
}

// seqScanner scans a row of seq then urlColumns into seq and, through scanURL, a URL.
type seqScanner struct {
	rows pgx.Rows
	seq  *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.rows.Scan(append([]any{s.seq}, dest...)...) }

// pageBatch reads the pages after seq after: at most store.PageBatch, and the seq of the last.
func (s *Store) pageBatch(ctx context.Context, after int64) ([]store.Page, int64, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, sqlPageURLs, after, store.PageBatch)
	if err != nil {
		return nil, 0, err
	}
	var urls []store.URL
	var last int64
	for rows.Next() {
		u, err := scanURL(seqScanner{rows, &last})
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		urls = append(urls, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(urls) == 0 {
		return nil, last, nil
	}
	ps := store.NewPageSet(urls)
	ids := ps.IDs()
	var id int64
	var idx, folded bool
	var title, body, to, anchor string
	var links []byte
	rows, _ = tx.Query(ctx, sqlPageStaged, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &idx, &title, &body, &folded, &links}, func() error {
		return ps.Staged(id, idx, title, body, folded, links)
	})
	if err != nil {
		return nil, 0, err
	}
	rows, _ = tx.Query(ctx, sqlPageIndexed, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &title, &body}, func() error {
		ps.Indexed(id, title, body)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	rows, _ = tx.Query(ctx, sqlPageLinks, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &to, &anchor}, func() error {
		ps.Link(id, to, anchor)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if targets := ps.StagedTargets(); targets != nil {
		urls := make(map[int64]string, len(targets))
		var u string
		rows, _ = tx.Query(ctx, sqlURLsByID, targets)
		if _, err := pgx.ForEachRow(rows, []any{&id, &u}, func() error { urls[id] = u; return nil }); err != nil {
			return nil, 0, err
		}
		ps.ResolveStaged(urls)
	}
	var header []byte
	rows, _ = tx.Query(ctx, sqlPageHeaders, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &header}, func() error {
		ps.Header(id, header)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return ps.Pages(), last, nil
}
