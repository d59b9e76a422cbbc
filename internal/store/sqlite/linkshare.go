package sqlite

import (
	"context"
	"fmt"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlLinkText reads, for each URL of an idSet, the bytes of the anchor text of its outgoing
// links and how many they are (each distinct link once: the links table's key), from the key of
// links alone.
const sqlLinkText = `SELECT from_id, SUM(length(CAST(anchor AS BLOB))), COUNT(*) FROM links WHERE from_id ` + inSet +
	` GROUP BY from_id`

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
	rows, err := s.read.QueryContext(ctx, sqlLinkText, idSet(ids))
	if err != nil {
		return fmt.Errorf("link shares: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n, links int
		if err := rows.Scan(&id, &n, &links); err != nil {
			return fmt.Errorf("link shares: %w", err)
		}
		if i, ok := at[id]; ok {
			rs[i].LinkShare = index.LinkShare(n, texts[id].bytes)
			rs[i].LinkRate = index.LinkRate(links, texts[id].bytes)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("link shares: %w", err)
	}
	return nil
}
