package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// stage records the batch's documents with their outgoing links in staged, one row per
// document (the last of the batch for a URL), replacing an earlier staged copy, in one
// statement, and their response headers in doc_headers in another. Nothing of the search index
// is touched here; IndexPending folds staged rows later, and deletes them.
func stage(ctx context.Context, tx pgx.Tx, b store.Batch) error {
	if len(b.Documents) == 0 {
		return nil
	}
	links := make(map[int64][]store.Link, len(b.Documents))
	for _, l := range b.Links {
		links[l.FromID] = append(links[l.FromID], l)
	}
	docs := lastByKey(b.Documents, func(d store.Document) int64 { return d.URLID })
	n := len(docs)
	ids := make([]int64, n)
	idx, nosnippet := make([]bool, n), make([]bool, n)
	titles, bodies, headings := make([]string, n), make([]string, n), make([]string, n)
	ua := make([]pgtype.Timestamptz, n)
	encoded, headers := make([][]byte, n), make([][]byte, n)
	for i, d := range docs {
		headers[i] = store.EncodeHeader(d.Header)
		if headers[i] == nil {
			headers[i] = []byte{}
		}
		ids[i], idx[i], nosnippet[i] = d.URLID, d.Index, d.NoSnippet
		titles[i], bodies[i] = pgText(d.Title), store.CutUTF8(pgText(d.Text), store.MaxIndexedTextBytes)
		headings[i] = store.CutUTF8(pgText(d.Headings), store.MaxIndexedHeadingsBytes)
		ua[i], encoded[i] = tz(d.UnavailableAfter), store.EncodeLinks(links[d.URLID], pgText)
	}
	_, err := tx.Exec(ctx, `INSERT INTO staged (url_id, idx, title, body, nosnippet, unavailable_after, links, headings)
		SELECT t.* FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::text[], $5::boolean[],
			$6::timestamptz[], $7::bytea[], $8::text[]) AS t
		ON CONFLICT (url_id) DO UPDATE SET idx = excluded.idx, title = excluded.title, body = excluded.body,
			headings = excluded.headings,
			nosnippet = excluded.nosnippet, unavailable_after = excluded.unavailable_after,
			links = excluded.links`,
		ids, idx, titles, bodies, nosnippet, ua, encoded, headings)
	if err != nil {
		return fmt.Errorf("stage %d documents: %w", n, err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO doc_headers (url_id, header) SELECT * FROM unnest($1::bigint[], $2::bytea[])
		ON CONFLICT (url_id) DO UPDATE SET header = excluded.header`, ids, headers)
	if err != nil {
		return fmt.Errorf("stage the headers of %d documents: %w", n, err)
	}
	return nil
}
