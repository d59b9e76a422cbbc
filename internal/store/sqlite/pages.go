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
	// A staged header and links are newer than folded's until the fold replaces them.
	sqlPageStaged  = `SELECT url_id, idx, title, body, links, header FROM staged WHERE url_id ` + inSet
	sqlPageIndexed = `SELECT d.url_id, f.title, f.body FROM docs d JOIN fts f ON f.rowid = d.num
		WHERE d.link_only = 0 AND d.url_id ` + inSet
	// A folded page's header and links, as the fold last kept them (encoded as staged).
	sqlPageFolded = `SELECT url_id, header, links FROM folded WHERE url_id ` + inSet
	sqlURLsByID   = `SELECT id, url FROM urls WHERE id ` + inSet
)

// EachPage implements store.Reader: store.PageBatch pages at a time, each batch read in one read
// transaction (a consistent snapshot), then handed to fn outside it.
func (s *Store) EachPage(ctx context.Context, fn func(store.Page) error) error {
	return store.WalkPages(ctx, func(ctx context.Context, after int64) ([]store.Page, int64, error) {
		pages, last, err := s.pageBatch(ctx, after)
		if err != nil {
			return nil, 0, fmt.Errorf("sqlite: list pages: %w", err)
		}
		return pages, last, nil
	}, fn)
}

// seqScanner scans a row of seq then urlColumns into seq and, through scanURL, a URL.
type seqScanner struct {
	row scanner
	seq *int64
}

func (s seqScanner) Scan(dest ...any) error { return s.row.Scan(append([]any{s.seq}, dest...)...) }

// pageBatch reads the pages after seq after: at most store.PageBatch, and the seq of the last.
func (s *Store) pageBatch(ctx context.Context, after int64) ([]store.Page, int64, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var last int64
	urls, err := collect(ctx, tx, func(r *sql.Rows) (store.URL, error) { return scanURL(seqScanner{r, &last}) }, sqlPageURLs, after, store.PageBatch)
	if err != nil || len(urls) == 0 {
		return nil, last, err
	}
	ps := store.NewPageSet(urls)
	set := idSet(ps.IDs())
	stagedHeaders := map[int64][]byte{}
	err = eachRow(ctx, tx, sqlPageStaged, []any{set}, func(r *sql.Rows) error {
		var id int64
		var idx bool
		var title, body string
		var links, header []byte
		if err := r.Scan(&id, &idx, &title, &body, &links, &header); err != nil {
			return err
		}
		if header != nil {
			stagedHeaders[id] = header
		}
		return ps.Staged(id, idx, title, body, false, links)
	})
	if err != nil {
		return nil, 0, err
	}
	err = eachRow(ctx, tx, sqlPageIndexed, []any{set}, func(r *sql.Rows) error {
		var id int64
		var title, body string
		if err := r.Scan(&id, &title, &body); err != nil {
			return err
		}
		ps.Indexed(id, title, body)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var folded []int64 // the page of each of foldedLinks
	var foldedLinks []store.StagedLink
	headers := map[int64][]byte{}
	err = eachRow(ctx, tx, sqlPageFolded, []any{set}, func(r *sql.Rows) error {
		var id int64
		var header, blob []byte
		if err := r.Scan(&id, &header, &blob); err != nil {
			return err
		}
		headers[id] = header
		links, err := store.DecodeLinks(blob)
		if err != nil {
			return fmt.Errorf("page %d: %w", id, err)
		}
		for _, l := range links {
			folded, foldedLinks = append(folded, id), append(foldedLinks, l)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	targets := ps.StagedTargets()
	for _, l := range foldedLinks {
		targets = append(targets, l.To)
	}
	if targets != nil {
		urls := make(map[int64]string, len(targets))
		err := eachRow(ctx, tx, sqlURLsByID, []any{idSet(targets)}, func(r *sql.Rows) error {
			var id int64
			var u string
			if err := r.Scan(&id, &u); err != nil {
				return err
			}
			urls[id] = u
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
		for i, l := range foldedLinks {
			ps.Link(folded[i], urls[l.To], l.Anchor)
		}
		ps.ResolveStaged(urls)
	}
	for id, h := range headers {
		ps.Header(id, h)
	}
	for id, h := range stagedHeaders {
		ps.Header(id, h)
	}
	return ps.Pages(), last, nil
}
