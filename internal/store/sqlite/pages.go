package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// The reads of one batch of EachPage, each over the batch's URL IDs (idSet) by an index.
const (
	sqlPageURLs = `SELECT seq, ` + urlColumns + ` FROM urls
		WHERE seq > ? AND kind = 0 AND fetched_at != 0 ORDER BY seq LIMIT ?`
	sqlPageHeaders = `SELECT url_id, header FROM doc_headers WHERE url_id ` + inSet
	sqlPageStaged  = `SELECT url_id, idx, title, body, folded, links FROM staged WHERE url_id ` + inSet
	sqlPageIndexed = `SELECT d.url_id, f.title, f.body FROM docs d JOIN fts f ON f.rowid = d.url_id
		WHERE d.link_only = 0 AND d.url_id ` + inSet
	sqlPageLinks = `SELECT l.from_id, u.url, l.anchor FROM links l JOIN urls u ON u.id = l.to_id
		WHERE l.from_id ` + inSet + ` ORDER BY l.from_id, u.url, l.anchor`
	sqlURLsByID = `SELECT id, url FROM urls WHERE id ` + inSet
)

// EachPage implements store.Reader: store.PageBatch pages at a time, each batch read in one read
// transaction (a consistent snapshot), then handed to fn outside it.
func (s *Store) EachPage(ctx context.Context, fn func(store.Page) error) error {
	var after int64
	for {
		pages, last, err := s.pageBatch(ctx, after)
		if err != nil {
			return fmt.Errorf("sqlite: list pages: %w", err)
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
	rows *sql.Rows
	seq  *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.rows.Scan(append([]any{s.seq}, dest...)...) }

// pageBatch reads the pages after seq after: at most store.PageBatch, and the seq of the last.
func (s *Store) pageBatch(ctx context.Context, after int64) ([]store.Page, int64, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, sqlPageURLs, after, store.PageBatch)
	if err != nil {
		return nil, 0, err
	}
	var pages []store.Page
	var last int64
	byID := map[int64]*store.Page{}
	for rows.Next() {
		u, err := scanURL(seqScanner{rows, &last})
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		pages = append(pages, store.Page{URL: u})
	}
	if err := rows.Close(); err != nil {
		return nil, 0, err
	}
	if len(pages) == 0 {
		return nil, last, nil
	}
	ids := make([]int64, len(pages))
	for i := range pages {
		ids[i] = pages[i].URL.ID
		byID[ids[i]] = &pages[i]
	}
	set := idSet(ids)
	staged := map[int64]bool{}    // the staged copy is the newest
	fromStage := map[int64]bool{} // unfolded: its links are in the stage, not in links yet
	var stagedLinks []store.StagedLink
	var stagedFrom []int64 // the page of each of stagedLinks
	err = eachRow(ctx, tx, sqlPageStaged, set, func(r *sql.Rows) error {
		var id int64
		var idx, folded bool
		var title, body string
		var links []byte
		if err := r.Scan(&id, &idx, &title, &body, &folded, &links); err != nil {
			return err
		}
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
	err = eachRow(ctx, tx, sqlPageIndexed, set, func(r *sql.Rows) error {
		var id int64
		var title, body string
		if err := r.Scan(&id, &title, &body); err != nil {
			return err
		}
		if !staged[id] {
			byID[id].Title, byID[id].Text = title, body
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	err = eachRow(ctx, tx, sqlPageLinks, set, func(r *sql.Rows) error {
		var id int64
		var l store.PageLink
		if err := r.Scan(&id, &l.To, &l.Anchor); err != nil {
			return err
		}
		if !fromStage[id] {
			byID[id].Links = append(byID[id].Links, l)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if err := resolveStaged(ctx, tx, byID, stagedFrom, stagedLinks); err != nil {
		return nil, 0, err
	}
	err = eachRow(ctx, tx, sqlPageHeaders, set, func(r *sql.Rows) error {
		var id int64
		var h []byte
		if err := r.Scan(&id, &h); err != nil {
			return err
		}
		byID[id].Header = store.DecodeHeader(h)
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

// resolveStaged adds staged links (from[i] links to links[i].To) to their pages, with the
// targets' URLs.
func resolveStaged(ctx context.Context, tx *sql.Tx, byID map[int64]*store.Page, from []int64, links []store.StagedLink) error {
	if len(links) == 0 {
		return nil
	}
	targets := make([]int64, len(links))
	for i, l := range links {
		targets[i] = l.To
	}
	urls := make(map[int64]string, len(links))
	err := eachRow(ctx, tx, sqlURLsByID, idSet(targets), func(r *sql.Rows) error {
		var id int64
		var u string
		if err := r.Scan(&id, &u); err != nil {
			return err
		}
		urls[id] = u
		return nil
	})
	if err != nil {
		return err
	}
	for i, l := range links {
		p := byID[from[i]]
		p.Links = append(p.Links, store.PageLink{To: urls[l.To], Anchor: l.Anchor})
	}
	return nil
}

// eachRow runs query with arg and calls fn for each row.
func eachRow(ctx context.Context, tx *sql.Tx, query string, arg any, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, arg)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
