package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlAnchorVotes reads, for each URL ID of $1, the anchor texts of the first $2
// (store.ResultLinks) links to it that the links_to index gives, from other pages, and how many
// of those carry each (a page's links to itself say nothing of what others call it). The limit
// applies to the rows read, before they are sifted.
const sqlAnchorVotes = `SELECT t.id, l.anchor, COUNT(*) FROM unnest($1::bigint[]) AS t(id)
	CROSS JOIN LATERAL (SELECT from_id, anchor FROM links WHERE to_id = t.id LIMIT $2) AS l
	WHERE l.from_id <> t.id AND l.anchor <> '' GROUP BY t.id, l.anchor`

// fillAnchorVotes sets the AnchorVotes of rs for the query's terms (index/ranking.go), before
// Rerank, as the SQLite store does, each from the first store.ResultLinks links to the result.
func fillAnchorVotes(ctx context.Context, tx pgx.Tx, rs []index.Result, terms []string) error {
	if len(rs) == 0 || len(terms) == 0 {
		return nil
	}
	tally := store.NewAnchorTally(rs)
	rows, _ := tx.Query(ctx, sqlAnchorVotes, tally.IDs, store.ResultLinks)
	var id, n int64
	var anchor string
	if _, err := pgx.ForEachRow(rows, []any{&id, &anchor, &n}, func() error {
		tally.Add(id, anchor, int(n))
		return nil
	}); err != nil {
		return fmt.Errorf("anchor votes: %w", err)
	}
	tally.Fill(rs, terms)
	return nil
}
