package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlAnchorVotes reads, for each URL ID of $1, its anchor texts from other pages and how many
// links carry each (a page's links to itself say nothing of what others call it).
const sqlAnchorVotes = `SELECT to_id, anchor, COUNT(*) FROM links WHERE to_id = ANY($1)
	AND from_id <> to_id AND anchor <> '' GROUP BY to_id, anchor`

// fillAnchorVotes sets the AnchorVotes of rs for the query's terms (index/ranking.go), before
// Rerank, as the SQLite store does.
func fillAnchorVotes(ctx context.Context, tx pgx.Tx, rs []index.Result, terms []string) error {
	if len(rs) == 0 || len(terms) == 0 {
		return nil
	}
	tally := store.NewAnchorTally(rs)
	rows, _ := tx.Query(ctx, sqlAnchorVotes, tally.IDs)
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
