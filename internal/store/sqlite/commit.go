package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// ErrUnknownURL reports an update of a URL ID the store does not hold; the whole batch is undone.
var ErrUnknownURL = errors.New("update of an unknown URL")

// Commit implements store.Store: one transaction for the whole batch.
func (s *Store) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	if s.readOnly {
		return nil, fmt.Errorf("sqlite: commit: %w", ErrReadOnly)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: commit: %w", err)
	}
	added, err := s.apply(ctx, tx, b)
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("sqlite: commit: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: commit: %w", err)
	}
	return added, nil
}

func (s *Store) apply(ctx context.Context, tx *sql.Tx, b store.Batch) ([]store.URL, error) {
	var added []store.URL
	newIDs := map[string]int64{}
	if len(b.New) > 0 {
		insertURL, insertOrigin := tx.StmtContext(ctx, s.stmts.insertURL), tx.StmtContext(ctx, s.stmts.insertOrigin)
		origins := make(map[string]bool)
		for _, n := range b.New {
			var next time.Time
			if n.State == store.StateQueued {
				next = n.DiscoveredAt // first due when discovered
			}
			var id int64
			err := insertURL.QueryRowContext(ctx, n.URL, n.Origin, int(n.Kind), n.Depth, n.Hops, string(n.State),
				n.Reason, unix(n.DiscoveredAt), unix(next)).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				continue // already known
			}
			if err != nil {
				return nil, fmt.Errorf("insert %s: %w", n.URL, err)
			}
			if !origins[n.Origin] {
				origins[n.Origin] = true
				if _, err := insertOrigin.ExecContext(ctx, n.Origin); err != nil {
					return nil, fmt.Errorf("insert origin %s: %w", n.Origin, err)
				}
			}
			newIDs[n.URL] = id
			added = append(added, store.URL{
				ID: id, URL: n.URL, Origin: n.Origin, Kind: n.Kind, Depth: n.Depth, Hops: n.Hops,
				State: n.State, Reason: n.Reason, DiscoveredAt: n.DiscoveredAt.UTC(), NextAt: next.UTC(),
			})
		}
	}
	if len(b.Updates) > 0 {
		update := tx.StmtContext(ctx, s.stmts.updateURL)
		for _, u := range b.Updates {
			res, err := update.ExecContext(ctx, u.Depth, u.Hops, string(u.State), u.Status, u.Reason, u.RuleLine,
				unix(u.FetchedAt), unix(u.NextAt), u.Attempts, u.ContentType, u.Location,
				boolInt(u.Indexed), boolInt(u.NoIndex), boolInt(u.NoFollow), u.ID)
			if err != nil {
				return nil, fmt.Errorf("update %s: %w", u.URL, err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return nil, fmt.Errorf("update id %d (%s): %w", u.ID, u.URL, ErrUnknownURL)
			}
		}
	}
	if len(b.Origins) > 0 {
		upsert := tx.StmtContext(ctx, s.stmts.upsertOrigin)
		for _, o := range b.Origins {
			args, err := originArgs(o)
			if err != nil {
				return nil, fmt.Errorf("origin %s: %w", o.Key, err)
			}
			if _, err := upsert.ExecContext(ctx, args...); err != nil {
				return nil, fmt.Errorf("write origin %s: %w", o.Key, err)
			}
		}
	}
	if len(b.Documents) > 0 || len(b.Links) > 0 {
		if err := s.applyIndex(ctx, tx, b, newIDs); err != nil {
			return nil, err
		}
	}
	return added, nil
}
