package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlLinkText reads the outgoing links of each URL of an idSet (encoded as staged): readers
// count the bytes of their anchor text and how many they are (each distinct link once).
const sqlLinkText = `SELECT url_id, links FROM folded WHERE url_id ` + inSet

// sqlSentenceEnds is the number of sentence ends of fts.body (index.SentenceEnds), counted by
// SQLite: each end removed shortens the text by its two characters.
const sqlSentenceEnds = `(length(fts.body) - length(replace(replace(replace(fts.body, '. ', ''), '? ', ''), '! ', ''))) / 2`

// textShape is what the shape of a page's text needs: its bytes and its sentence ends.
type textShape struct{ bytes, sentenceEnds int }

// fillLinkShares sets the LinkShare, LinkRate and SentenceRate of rs's documents (index.LinkShare,
// index/ranking.go) before Rerank; texts maps each document's URL ID to its text's shape.
func (s *Store) fillLinkShares(ctx context.Context, rs []index.Result, texts map[int64]textShape) error {
	at := make(map[int64]int, len(rs))
	var ids []int64
	for i, r := range rs {
		if !r.LinkOnly {
			id := store.IDOf(r.URL)
			at[id], ids = i, append(ids, id)
			rs[i].SentenceRate = index.SentenceRate(texts[id].sentenceEnds, texts[id].bytes)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	err := eachRow(ctx, s.read, sqlLinkText, []any{idSet(ids)}, func(r *sql.Rows) error {
		var id int64
		var blob []byte
		if err := r.Scan(&id, &blob); err != nil {
			return err
		}
		links, err := store.DecodeLinks(blob)
		if err != nil {
			return fmt.Errorf("of %d: %w", id, err)
		}
		n := 0
		for _, l := range links {
			n += len(l.Anchor)
		}
		if i, ok := at[id]; ok {
			rs[i].LinkShare = index.LinkShare(n, texts[id].bytes)
			rs[i].LinkRate = index.LinkRate(len(links), texts[id].bytes)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("link shares: %w", err)
	}
	return nil
}
