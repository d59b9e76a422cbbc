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
	sqlPageStaged  = `SELECT url_id, idx, title, body, folded, links FROM staged WHERE url_id = ANY($1)`
	sqlPageIndexed = `SELECT t.url_id, t.title, t.body FROM docs d JOIN doc_text t ON t.url_id = d.url_id
		WHERE NOT d.link_only AND d.url_id = ANY($1)`
	sqlPageLinks = `SELECT l.from_id, u.url, l.anchor FROM links l JOIN urls u ON u.id = l.to_id
		WHERE l.from_id = ANY($1)`
	sqlURLsByID = `SELECT id, url FROM urls WHERE id = ANY($1)`
)

// EachPage implements store.Reader: store.PageBatch pages at a time, each batch read in one
// repeatable-read transaction (a consistent snapshot), then handed to fn outside it.
func (s *Store) EachPage(ctx context.Context, fn func(store.Page) error) error {
	var after int64
	for {
		pages, last, err := s.pageBatch(ctx, after)
		if err != nil {
			return fmt.Errorf("postgres: list pages: %w", err)
		}
		for _, p := range pages {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(pages) < store.PageBatch {
			return nil
		}
		after = last
	}
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
	var pages []store.Page
	var last int64
	for rows.Next() {
		u, err := scanURL(seqScanner{rows, &last})
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		pages = append(pages, store.Page{URL: u})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(pages) == 0 {
		return nil, last, nil
	}
	ids := make([]int64, len(pages))
	byID := make(map[int64]*store.Page, len(pages))
	for i := range pages {
		ids[i] = pages[i].URL.ID
		byID[ids[i]] = &pages[i]
	}
	staged := map[int64]bool{}    // the staged copy is the newest
	fromStage := map[int64]bool{} // unfolded: its links are in the stage, not in links yet
	var stagedLinks []store.StagedLink
	var stagedFrom []int64 // the page of each of stagedLinks
	var id int64
	var idx, folded bool
	var title, body string
	var links []byte
	rows, _ = tx.Query(ctx, sqlPageStaged, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &idx, &title, &body, &folded, &links}, func() error {
		p := byID[id]
		staged[id] = true
		if idx {
			p.Title, p.Text = title, body
		}
		if !folded {
			l, err := store.DecodeLinks(links)
			if err != nil {
				return fmt.Errorf("page %d: %w", id, err)
			}
			stagedLinks = append(stagedLinks, l...)
			for range l {
				stagedFrom = append(stagedFrom, id)
			}
			fromStage[id] = true
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	rows, _ = tx.Query(ctx, sqlPageIndexed, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &title, &body}, func() error {
		if !staged[id] {
			byID[id].Title, byID[id].Text = title, body
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var l store.PageLink
	rows, _ = tx.Query(ctx, sqlPageLinks, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &l.To, &l.Anchor}, func() error {
		if !fromStage[id] {
			byID[id].Links = append(byID[id].Links, l)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if len(stagedLinks) > 0 {
		targets := make([]int64, len(stagedLinks))
		for i, sl := range stagedLinks {
			targets[i] = sl.To
		}
		urls := make(map[int64]string, len(targets))
		var u string
		rows, _ = tx.Query(ctx, sqlURLsByID, targets)
		if _, err := pgx.ForEachRow(rows, []any{&id, &u}, func() error { urls[id] = u; return nil }); err != nil {
			return nil, 0, err
		}
		for i, sl := range stagedLinks {
			p := byID[stagedFrom[i]]
			p.Links = append(p.Links, store.PageLink{To: urls[sl.To], Anchor: sl.Anchor})
		}
	}
	var header []byte
	rows, _ = tx.Query(ctx, sqlPageHeaders, ids)
	_, err = pgx.ForEachRow(rows, []any{&id, &header}, func() error {
		byID[id].Header = store.DecodeHeader(header)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	for i := range pages {
		store.FinishPage(&pages[i])
	}
	return pages, last, nil
}
