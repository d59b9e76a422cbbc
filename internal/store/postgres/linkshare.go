package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlLinkText reads, for each URL ID of $1, the bytes of the anchor text of its outgoing links
// and how many they are (each distinct link once: the links table's key).
const sqlLinkText = `SELECT from_id, SUM(octet_length(anchor)), COUNT(*) FROM links WHERE from_id = ANY($1) GROUP BY from_id`

// fillLinkShares sets the LinkShare, LinkRate and SentenceRate of rs's documents (index.LinkShare,
// index/ranking.go) before Rerank, as the SQLite store does; bodies maps each document's URL ID
// to its indexed text.
func fillLinkShares(ctx context.Context, tx pgx.Tx, rs []index.Result, bodies map[int64]string) error {
	at := make(map[int64]int, len(rs))
	var ids []int64
	for i, r := range rs {
		if !r.LinkOnly {
			id := store.IDOf(r.URL)
			at[id], ids = i, append(ids, id)
			rs[i].SentenceRate = index.SentenceRate(index.SentenceEnds(bodies[id]), len(bodies[id]))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, _ := tx.Query(ctx, sqlLinkText, ids)
	var id, n, links int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &n, &links}, func() error {
		if i, ok := at[id]; ok {
			rs[i].LinkShare = index.LinkShare(int(n), len(bodies[id]))
			rs[i].LinkRate = index.LinkRate(int(links), len(bodies[id]))
		}
		return nil
	}); err != nil {
		return fmt.Errorf("link shares: %w", err)
	}
	return nil
}
