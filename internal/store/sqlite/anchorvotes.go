package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// sqlAnchorVotes reads, for one URL, the anchor texts of the first resultLinks links to it (in
// the key's order, by linking page: a hash sample, as topAnchor's) from other pages and how many
// of those carry each (a page's links to itself say nothing of what others call it). The limit
// applies to the rows read, before they are sifted.
const sqlAnchorVotes = `SELECT anchor, COUNT(*) FROM (SELECT from_id, anchor FROM links WHERE to_id = ? ORDER BY to_id, from_id LIMIT ?)
	WHERE from_id != ? AND anchor != '' GROUP BY anchor`

// fillAnchorVotes sets the AnchorVotes of rs for the query's terms (index/ranking.go), before
// Rerank, each from the first resultLinks links to the result: a page linked from every page of
// a large site has hundreds of thousands, and the votes' prior grows with their logarithm, so
// a sample of a thousand ranks it among the others as well as all of them would.
func (s *Store) fillAnchorVotes(ctx context.Context, rs []index.Result, terms []string) error {
	if len(rs) == 0 || len(terms) == 0 {
		return nil
	}
	tally := store.NewAnchorTally(rs)
	stmt, err := s.read.PrepareContext(ctx, sqlAnchorVotes)
	if err != nil {
		return fmt.Errorf("anchor votes: %w", err)
	}
	defer stmt.Close()
	for _, id := range tally.IDs {
		err := eachRow(ctx, stmtQuerier{stmt}, "", []any{id, resultLinks, id}, func(r *sql.Rows) error {
			var anchor string
			var n int
			if err := r.Scan(&anchor, &n); err != nil {
				return err
			}
			tally.Add(id, anchor, n)
			return nil
		})
		if err != nil {
			return fmt.Errorf("anchor votes: %w", err)
		}
	}
	tally.Fill(rs, terms)
	return nil
}

// stmtQuerier runs its prepared statement as a querier (the query text it is given is the
// statement's own).
type stmtQuerier struct{ *sql.Stmt }

func (q stmtQuerier) QueryContext(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
	return q.Stmt.QueryContext(ctx, args...)
}
