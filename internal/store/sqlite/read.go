package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// LeaseOrigins implements store.Store. One process owns the file, so every due origin is granted.
//
// An origin's due time is one seek in urls_origin per origin (the MIN of its next_at above 0), so
// the query costs O(origins), not O(queued URLs).
func (s *Store) LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
	keys, err := collect(ctx, s.read, func(r *sql.Rows) (key string, err error) {
		var due int64
		return key, r.Scan(&key, &due)
	}, `SELECT key, due FROM (
			SELECT key, (SELECT MIN(next_at) FROM urls WHERE origin = origins.key AND next_at > 0) AS due FROM origins
		) WHERE due <= ? ORDER BY due, key LIMIT ?`, unix(until), max)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lease origins: %w", err)
	}
	return keys, nil
}

// LeaseOrigin implements store.Store: always granted (one process owns the file).
func (s *Store) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	return true, nil
}

// ReleaseOrigins implements store.Store: nothing to release.
func (s *Store) ReleaseOrigins(ctx context.Context, owner string, keys []string) error { return nil }

// DueURLs implements store.Store.
func (s *Store) DueURLs(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
	out, err := collect(ctx, s.read, scanURLs, sqlDueURLs, origin, unix(now), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: due URLs of %s: %w", origin, err)
	}
	return out, nil
}

// sqlDueURLs reads an origin's URLs due at a time, up to a limit, in the order they are fetched:
// shallowest first, then in discovery order.
const sqlDueURLs = `SELECT ` + urlColumns + ` FROM urls
	WHERE origin = ? AND next_at > 0 AND next_at <= ? ORDER BY depth, seq LIMIT ?`

// LoadOrigin implements store.Queue: the record, the due URLs, and the IDs of every URL of the
// origin, read in one read transaction (a consistent snapshot) through the index urls_origin.
func (s *Store) LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	var out store.OriginLoad
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return out, fmt.Errorf("sqlite: load origin %s: %w", key, err)
	}
	defer tx.Rollback()
	o, err := scanOrigin(tx.QueryRowContext(ctx, `SELECT `+originColumns+` FROM origins WHERE key = ?`, key))
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return out, fmt.Errorf("sqlite: load origin %s: %w", key, err)
	default:
		out.Origin, out.Known = o, true
	}
	if out.Due, err = collect(ctx, tx, scanURLs, sqlDueURLs, key, unix(now), limit+1); err != nil {
		return out, fmt.Errorf("sqlite: load origin %s: %w", key, err)
	}
	if len(out.Due) > limit {
		out.Due, out.More = out.Due[:limit], true
	}
	at := unix(now)
	err = eachRow(ctx, tx, `SELECT id, next_at, kind = ? AND state IN (?, ?) FROM urls WHERE origin = ?`,
		[]any{store.KindPage, store.StateFetched, store.StateError, key}, func(r *sql.Rows) error {
			var id, next int64
			var requested bool
			if err := r.Scan(&id, &next, &requested); err != nil {
				return err
			}
			out.IDs = append(out.IDs, id)
			if next == 0 || next > at {
				out.Waiting = append(out.Waiting, id)
			}
			if requested {
				out.Requested++
			}
			return nil
		})
	if err != nil {
		return out, fmt.Errorf("sqlite: load origin %s: %w", key, err)
	}
	return out, nil
}

// Origin implements store.Store.
func (s *Store) Origin(ctx context.Context, key string) (store.Origin, bool, error) {
	o, err := scanOrigin(s.read.QueryRowContext(ctx, `SELECT `+originColumns+` FROM origins WHERE key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Origin{}, false, nil
	}
	if err != nil {
		return store.Origin{}, false, fmt.Errorf("sqlite: origin %s: %w", key, err)
	}
	return o, true, nil
}

// EachURL implements store.Store, streaming rows in discovery order.
func (s *Store) EachURL(ctx context.Context, fn func(store.URL) error) error {
	return stream(ctx, s.read, "list URLs", scanURLs, `SELECT `+urlColumns+` FROM urls ORDER BY seq`, fn)
}

// EachOrigin implements store.Store, streaming rows in key order.
func (s *Store) EachOrigin(ctx context.Context, fn func(store.Origin) error) error {
	return stream(ctx, s.read, "list origins", scanOrigins, `SELECT `+originColumns+` FROM origins ORDER BY key`, fn)
}

// Seeds implements store.Store.
func (s *Store) Seeds(ctx context.Context) ([]string, error) {
	out, err := collect(ctx, s.read, func(r *sql.Rows) (u string, err error) { return u, r.Scan(&u) },
		`SELECT url FROM urls WHERE depth = 0 AND hops = 0 AND kind = 0 ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: seeds: %w", err)
	}
	return out, nil
}
