package sqlite

import (
	"context"
	"errors"
	"fmt"
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
		s.origins.Add(u.Origin)
	}
	for _, o := range b.Origins {
		s.origins.Add(o.Key)
	}
	return added, nil
}

func (s *Store) apply(ctx context.Context, tx writeTx, b store.Batch) ([]store.URL, error) {
	var added []store.URL
	if len(b.New) > 0 {
		var err error
		if added, err = s.insertNew(ctx, tx, b.New); err != nil {
			return nil, err
		}
	}
	if len(b.Updates) > 0 {
		update := s.stmts.updateURL
		for _, u := range b.Updates {
			res, err := update.ExecContext(ctx, u.Depth, u.Hops, string(u.State), u.Status, u.Reason, u.RuleLine,
				unix(u.FetchedAt), unix(u.NextAt), u.Attempts, u.ContentType, u.Location,
				boolInt(u.Indexed), boolInt(u.NoIndex), boolInt(u.NoFollow), u.Canonical, u.ETag, u.LastModified,
				u.WARC.File, u.WARC.Offset, u.WARC.RecordID, u.ID)
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
		if err := s.stage(ctx, b); err != nil {
			return nil, err
		}
	}
	return added, nil
}

// insertNew adds the URLs of news that are not known yet, in multi-row INSERTs of up to
// insertChunk rows, and creates the origins they name. It returns the added URLs in the order
// given.
func (s *Store) insertNew(ctx context.Context, tx writeTx, news []store.NewURL) ([]store.URL, error) {
	ids := make([]int64, len(news))
	for i, n := range news {
		ids[i] = store.IDOf(n.URL)
	}
	inserted := make(map[int64]bool, len(news))
	args := make([]any, 0, insertURLParams*min(len(news), insertChunk))
	for start := 0; start < len(news); start += insertChunk {
		chunk := news[start:min(start+insertChunk, len(news))]
		args = args[:0]
		for i, n := range chunk {
			args = append(args, ids[start+i], n.URL, n.Origin, int(n.Kind), n.Depth, n.Hops, string(n.State), n.Reason,
				unix(n.DiscoveredAt), unix(firstDue(n)))
		}
		stmt, err := s.stmts.insertURLsStmt(ctx, tx, len(chunk))
		if err != nil {
			return nil, err
		}
		rows, err := stmt.QueryContext(ctx, args...)
		if err != nil {
			return nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
			}
			inserted[id] = true
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("insert %d URLs: %w", len(chunk), err)
		}
	}
	if len(inserted) == 0 {
		return nil, nil
	}

	added := make([]store.URL, 0, len(inserted))
	origins := make(map[string]bool)
	for i, n := range news {
		id := ids[i]
		if !inserted[id] {
			continue // known before the batch, or a later copy of a URL added earlier in it
		}
		delete(inserted, id)
		if !origins[n.Origin] && !s.origins.Has(n.Origin) {
			origins[n.Origin] = true
			if _, err := s.stmts.insertOrigin.ExecContext(ctx, n.Origin); err != nil {
				return nil, fmt.Errorf("insert origin %s: %w", n.Origin, err)
			}
		}
		added = append(added, store.URL{
			ID: id, URL: n.URL, Origin: n.Origin, Kind: n.Kind, Depth: n.Depth, Hops: n.Hops,
			State: n.State, Reason: n.Reason, DiscoveredAt: n.DiscoveredAt.UTC(), NextAt: firstDue(n).UTC(),
		})
	}
	return added, nil
}

// firstDue is when a new URL is first due: when it was discovered if queued, never otherwise.
func firstDue(n store.NewURL) time.Time {
	if n.State == store.StateQueued {
		return n.DiscoveredAt
	}
	return time.Time{}
}
