package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// stage records the batch's documents with their outgoing links in staged, one row per
// document (the last of the batch for a URL), replacing an earlier staged copy, in one
// statement. Nothing of the search index is touched here; IndexPending folds staged rows later.
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
	titles, bodies := make([]string, n), make([]string, n)
	ua := make([]pgtype.Timestamptz, n)
	encoded := make([][]byte, n)
	for i, d := range docs {
		ids[i], idx[i], nosnippet[i] = d.URLID, d.Index, d.NoSnippet
		titles[i], bodies[i] = pgText(d.Title), cutUTF8(pgText(d.Text), store.MaxIndexedTextBytes)
		ua[i], encoded[i] = tz(d.UnavailableAfter), encodeLinks(links[d.URLID])
	}
	_, err := tx.Exec(ctx, `INSERT INTO staged (url_id, idx, title, body, nosnippet, unavailable_after, links, folded)
		SELECT t.*, false FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::text[], $5::boolean[],
			$6::timestamptz[], $7::bytea[]) AS t
		ON CONFLICT (url_id) DO UPDATE SET idx = excluded.idx, title = excluded.title, body = excluded.body,
			nosnippet = excluded.nosnippet, unavailable_after = excluded.unavailable_after,
			links = excluded.links, folded = false`,
		ids, idx, titles, bodies, nosnippet, ua, encoded)
	if err != nil {
		return fmt.Errorf("stage %d documents: %w", n, err)
	}
	return nil
}

// stagedLink is one link of a staged document.
type stagedLink struct {
	to     int64
	anchor string
}

// encodeLinks packs links as a varint count, then per link the target's ID (store.IDOf) as a
// varint and the anchor (cut at store.MaxAnchorBytes) as a length-prefixed string. Links with
// the same target and anchor are kept once. It is the SQLite store's format.
func encodeLinks(links []store.Link) []byte {
	if len(links) == 0 {
		return nil
	}
	type key struct {
		to     int64
		anchor string
	}
	seen := make(map[key]bool, len(links))
	var body []byte
	n := 0
	for _, l := range links {
		k := key{store.IDOf(l.To), cutUTF8(pgText(l.Anchor), store.MaxAnchorBytes)}
		if seen[k] {
			continue
		}
		seen[k] = true
		n++
		body = binary.AppendVarint(body, k.to)
		body = binary.AppendUvarint(body, uint64(len(k.anchor)))
		body = append(body, k.anchor...)
	}
	return append(binary.AppendUvarint(make([]byte, 0, len(body)+4), uint64(n)), body...)
}

var errBadLinks = errors.New("staged links are corrupt")

// decodeLinks reverses encodeLinks.
func decodeLinks(b []byte) ([]stagedLink, error) {
	if len(b) == 0 {
		return nil, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errBadLinks
	}
	b = b[k:]
	out := make([]stagedLink, 0, n)
	for range n {
		to, k := binary.Varint(b)
		if k <= 0 {
			return nil, errBadLinks
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errBadLinks
		}
		b = b[k:]
		out = append(out, stagedLink{to: to, anchor: string(b[:l])})
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, errBadLinks
	}
	return out, nil
}

// cutUTF8 cuts s to at most n bytes without splitting a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
