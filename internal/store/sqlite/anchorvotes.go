package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlAnchorVotes reads, for each URL of an idSet, its anchor texts from other pages and how
// many links carry each (a page's links to itself say nothing of what others call it).
const sqlAnchorVotes = `SELECT to_id, anchor, COUNT(*) FROM links WHERE to_id ` + inSet +
	` AND from_id != to_id AND anchor != '' GROUP BY to_id, anchor`

// fillAnchorVotes sets the AnchorVotes of rs for the query's terms (index/ranking.go), before
// Rerank.
func (s *Store) fillAnchorVotes(ctx context.Context, rs []index.Result, terms []string) error {
	if len(rs) == 0 || len(terms) == 0 {
		return nil
	}
	tally := store.NewAnchorTally(rs)
	err := eachRow(ctx, s.read, sqlAnchorVotes, []any{idSet(tally.IDs)}, func(r *sql.Rows) error {
		var id int64
		var anchor string
		var n int
		if err := r.Scan(&id, &anchor, &n); err != nil {
			return err
		}
		tally.Add(id, anchor, n)
		return nil
	})
	if err != nil {
		return fmt.Errorf("anchor votes: %w", err)
	}
	tally.Fill(rs, terms)
	return nil
}
