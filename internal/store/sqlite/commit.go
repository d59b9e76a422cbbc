package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// ErrUnknownURL reports an update of a URL ID the store does not hold; the whole batch is undone.
var ErrUnknownURL = errors.New("update of an unknown URL")

// Commit implements store.Store: one transaction for the whole batch. Commits run one at a time
// (SQLite has one writer); once a commit has begun, cancelling ctx no longer stops it (see inTx).
func (s *Store) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	var added []store.URL
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		var err error
		added, err = s.apply(ctx, tx, b)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: commit: %w", err)
	}
	for _, u := range added { // only now: a rolled-back origin must not be remembered
		s.origins.add(u.Origin)
	}
	for _, o := range b.Origins {
		s.origins.add(o.Key)
	}
	return added, nil
}

func (s *Store) apply(ctx context.Context, tx writeTx, b store.Batch) ([]store.URL, error) {
	var added []store.URL
	var newIDs map[string]int64
	if len(b.New) > 0 {
		var err error
		if added, newIDs, err = s.insertNew(ctx, tx, b.New); err != nil {
			return nil, err
		}
	}
	if len(b.Updates) > 0 {
		update := s.stmts.updateURL
		for _, u := range b.Updates {
			res, err := update.ExecContext(ctx, u.Depth, u.Hops, string(u.State), u.Status, u.Reason, u.RuleLine,
				unix(u.FetchedAt), unix(u.NextAt), u.Attempts, u.ContentType, u.Location,
				boolInt(u.Indexed), boolInt(u.NoIndex), boolInt(u.NoFollow), u.Canonical, u.ID)
			if err != nil {
				return nil, fmt.Errorf("update %s: %w", u.URL, err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return nil, fmt.Errorf("update id %d (%s): %w", u.ID, u.URL, ErrUnknownURL)
			}
		}
	}
	if len(b.Origins) > 0 {
		upsert := s.stmts.upsertOrigin
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

// insertNew adds the URLs of news that are not known yet, in multi-row INSERTs of up to
// insertChunk rows, and creates the origins they name. It returns the added URLs in the order
// given, and their IDs by URL.
func (s *Store) insertNew(ctx context.Context, tx writeTx, news []store.NewURL) ([]store.URL, map[string]int64, error) {
	ids := make(map[string]int64, len(news))
	args := make([]any, 0, insertURLParams*min(len(news), insertChunk))
	for chunk := range slices.Chunk(news, insertChunk) {
		args = args[:0]
		for _, n := range chunk {
			args = append(args, n.URL, n.Origin, int(n.Kind), n.Depth, n.Hops, string(n.State), n.Reason,
				unix(n.DiscoveredAt), unix(firstDue(n)))
		}
		stmt, err := s.stmts.insertURLsStmt(ctx, tx, len(chunk))
		if err != nil {
			return nil, nil, err
		}
		rows, err := stmt.QueryContext(ctx, args...)
		if err != nil {
			return nil, nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
		}
		for rows.Next() {
			var id int64
			var u string
			if err := rows.Scan(&id, &u); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
			}
			ids[u] = id
		}
		if err := rows.Close(); err != nil {
			return nil, nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
		}
	}
	if len(ids) == 0 {
		return nil, ids, nil
	}

	added := make([]store.URL, 0, len(ids))
	origins := make(map[string]bool)
	var last int64 // IDs grow in the order of news
	for _, n := range news {
		id, ok := ids[n.URL]
		if !ok || id <= last {
			continue // known before the batch, or a later copy of a URL added earlier in it
		}
		last = id
		if !origins[n.Origin] && !s.origins.has(n.Origin) {
			origins[n.Origin] = true
			if _, err := s.stmts.insertOrigin.ExecContext(ctx, n.Origin); err != nil {
				return nil, nil, fmt.Errorf("insert origin %s: %w", n.Origin, err)
			}
		}
		added = append(added, store.URL{
			ID: id, URL: n.URL, Origin: n.Origin, Kind: n.Kind, Depth: n.Depth, Hops: n.Hops,
			State: n.State, Reason: n.Reason, DiscoveredAt: n.DiscoveredAt.UTC(), NextAt: firstDue(n).UTC(),
		})
	}
	return added, ids, nil
}

// firstDue is when a new URL is first due: when it was discovered if queued, never otherwise.
func firstDue(n store.NewURL) time.Time {
	if n.State == store.StateQueued {
		return n.DiscoveredAt
	}
	return time.Time{}
}
