package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// stage records the batch's documents (the last of the batch for a URL) in one round trip:
// their flags and outgoing links in staged, replacing an earlier staged copy; the text of those
// that may be indexed in doc_text, where it is written once (issue 31 part 4: it was staged,
// then copied there by the fold); and their response headers in doc_headers. Nothing of the
// search index is touched here: IndexPending folds staged rows later, reading their text back
// from doc_text, and deletes them.
//
// The staged row is written first: a fold holding it (FOR UPDATE) makes this commit wait before
// it writes the text, so the fold reads the text of the very version it took. A document that
// may not be indexed leaves doc_text as it is until its fold removes the entry with its text;
// one fetched again before its fold shows its new text in a result of its old entry meanwhile.
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
	var textIDs []int64
	var titles, bodies, headings []string
	ua := make([]pgtype.Timestamptz, n)
	encoded, headers := make([][]byte, n), make([][]byte, n)
	for i, d := range docs {
		headers[i] = store.EncodeHeader(d.Header)
		if headers[i] == nil {
			headers[i] = []byte{}
		}
		ids[i], idx[i], nosnippet[i] = d.URLID, d.Index, d.NoSnippet
		ua[i], encoded[i] = tz(d.UnavailableAfter), store.EncodeLinks(links[d.URLID], pgText)
		if d.Index {
			textIDs, titles = append(textIDs, d.URLID), append(titles, noControls(pgText(d.Title)))
			bodies = append(bodies, noControls(store.CutUTF8(pgText(d.Text), store.MaxIndexedTextBytes)))
			headings = append(headings, noControls(store.CutUTF8(pgText(d.Headings), store.MaxIndexedHeadingsBytes)))
		}
	}
	batch := &pgx.Batch{}
	batch.Queue(`INSERT INTO staged (url_id, idx, nosnippet, unavailable_after, links)
		SELECT t.* FROM unnest($1::bigint[], $2::boolean[], $3::boolean[], $4::timestamptz[], $5::bytea[]) AS t
		ON CONFLICT (url_id) DO UPDATE SET idx = excluded.idx, nosnippet = excluded.nosnippet,
			unavailable_after = excluded.unavailable_after, links = excluded.links`,
		ids, idx, nosnippet, ua, encoded)
	if len(textIDs) > 0 {
		batch.Queue(`INSERT INTO doc_text (url_id, title, body, headings)
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
			ON CONFLICT (url_id) DO UPDATE SET title = excluded.title, body = excluded.body, headings = excluded.headings`,
			textIDs, titles, bodies, headings)
	}
	batch.Queue(`INSERT INTO doc_headers (url_id, header) SELECT * FROM unnest($1::bigint[], $2::bytea[])
		ON CONFLICT (url_id) DO UPDATE SET header = excluded.header`, ids, headers)
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return fmt.Errorf("stage %d documents: %w", n, err)
	}
	return nil
}
