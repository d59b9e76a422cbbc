package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Leases live in their own table (origin, owner, expires), so that leasing an origin the
// crawler has only just discovered creates no origin record. A lease is live while expires is
// after the caller's now; a grant or a takeover is one upsert that changes the owner only when
// the row is free, expired or the caller's, so that two processes asking at once cannot both
// win.
//
// Commit's fencing (Batch.Owner) locks the lease rows FOR KEY SHARE, and owner is a key column
// (the unique index leases_owner is on it): a statement that changes a row's owner (a takeover)
// takes the row FOR UPDATE, which waits until a commit of the old owner that passed the check is
// durable, and the new owner's LoadOrigin, which follows its grant, sees it. A renewal changes
// expires alone and takes its rows FOR NO KEY UPDATE, which a fence's KEY SHARE does not
// conflict with: a worker's commits and its renewals of the same origins never wait for each
// other (issue 31: with FOR SHARE against FOR UPDATE, a fenced commit waited for every renewal
// of the worker's thousands of leases, and each renewal for the commits, a third of the
// committer's time at the politeness limit).

// ownLeases starts the subquery through which every statement that writes several lease rows
// locks them first, in key order (ORDER BY origin, then renewLock or FOR UPDATE): Commit's fence
// locks them in key order too, and two statements taking the same rows in different orders
// deadlock (seen in clusterbench: a renewal in the table's order against a fenced commit ended a
// crawl).
const ownLeases = `SELECT origin FROM leases`

// renewLock is the lock a renewal takes on its rows: the one an UPDATE of expires alone takes,
// which does not conflict with a fence's FOR KEY SHARE.
const renewLock = ` FOR NO KEY UPDATE`

// LeaseOrigins implements store.Leases: it renews every lease owner holds, then grants up to
// max origins with URLs due at or before until that are free, expired, or owner's already,
// earliest due first. Two statements, each its own transaction.
//
// An origin paused past until (paused_until, written by whichever worker met the 503) is not
// granted: it could not be sent a request before its pause ends, and would only take a slot of
// the batch that a due origin could fill (issue 31 part 3). It is granted again once its pause
// ends by until.
//
// An origin's due time is one seek in urls_origin per origin, so the query costs O(origins),
// not O(queued URLs). The origins owner holds already, renewed by the first statement, are
// returned without being written again (issue 31: a worker holding 4,096 origins rewrote all
// of them twice per acquire; BenchmarkAcquire: 313 ms, then 170 ms, at load 17).
func (s *Store) LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
	expires := now.Add(ttl)
	if err := s.retry(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `UPDATE leases SET expires = $2 FROM (`+ownLeases+` WHERE owner = $1 ORDER BY origin`+renewLock+`) o
			WHERE leases.origin = o.origin`, owner, expires)
		return err
	}); err != nil {
		return nil, fmt.Errorf("postgres: renew leases of %s: %w", owner, err)
	}
	if max <= 0 {
		return nil, nil
	}
	var keys []string
	err := s.retry(ctx, func(ctx context.Context) error {
		rows, _ := s.pool.Query(ctx, `WITH cand AS (
				SELECT o.key, d.due, l.owner IS NOT DISTINCT FROM $1 AS mine FROM origins o
				CROSS JOIN LATERAL (SELECT next_at AS due FROM urls
					WHERE urls.origin = o.key AND next_at IS NOT NULL ORDER BY next_at LIMIT 1) d
				LEFT JOIN leases l ON l.origin = o.key
				WHERE d.due <= $3 AND (o.paused_until IS NULL OR o.paused_until <= $3)
					AND (l.origin IS NULL OR l.owner = $1 OR l.expires <= $2)
				ORDER BY d.due, o.key LIMIT $5),
			granted AS (
				INSERT INTO leases (origin, owner, expires) SELECT key, $1, $4 FROM cand WHERE NOT mine ORDER BY key
				ON CONFLICT (origin) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
				WHERE leases.owner = excluded.owner OR leases.expires <= $2
				RETURNING origin)
			SELECT cand.key FROM cand LEFT JOIN granted ON granted.origin = cand.key
			WHERE cand.mine OR granted.origin IS NOT NULL ORDER BY cand.due, cand.key`,
			owner, now, until, expires, max)
		var err error
		keys, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: lease origins for %s: %w", owner, err)
	}
	return keys, nil
}

// LeaseOrigin implements store.Leases in one upsert.
func (s *Store) LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
	var granted bool
	err := s.retry(ctx, func(ctx context.Context) error {
		rows, _ := s.pool.Query(ctx, `INSERT INTO leases (origin, owner, expires) VALUES ($1, $2, $4)
			ON CONFLICT (origin) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
			WHERE leases.owner = excluded.owner OR leases.expires <= $3
			RETURNING origin`, pgText(key), owner, now, now.Add(ttl))
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		granted = len(got) == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("postgres: lease %s for %s: %w", key, owner, err)
	}
	return granted, nil
}

// LeaseEach grants owner each of keys (given origins, as LeaseOrigin does one) that no other
// live owner holds, for ttl from now, in one statement, and returns the keys owner holds now, in
// key order (issue 31: a worker taking over 5,000 origins leased them one round trip and one
// durable commit each, and sent its first requests seconds late). Rows are taken in key order,
// as every statement that writes several lease rows does.
func (s *Store) LeaseEach(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	ks := make([]string, len(keys))
	given := make(map[string][]string, len(keys)) // stored form to the keys given (pgText)
	for i, k := range keys {
		ks[i] = pgText(k)
		given[ks[i]] = append(given[ks[i]], k)
	}
	var granted []string
	err := s.retry(ctx, func(ctx context.Context) error {
		rows, _ := s.pool.Query(ctx, `INSERT INTO leases (origin, owner, expires)
				SELECT DISTINCT k, $2, $4::timestamptz FROM unnest($1::text[]) AS k ORDER BY k
			ON CONFLICT (origin) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
			WHERE leases.owner = excluded.owner OR leases.expires <= $3
			RETURNING origin`, ks, owner, now, now.Add(ttl))
		var err error
		granted, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: lease %d origins for %s: %w", len(keys), owner, err)
	}
	var out []string
	for _, k := range granted {
		out = append(out, given[k]...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// RenewOrigins implements store.Shared in one statement.
func (s *Store) RenewOrigins(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var held []string
	err := s.retry(ctx, func(ctx context.Context) error {
		rows, _ := s.pool.Query(ctx, `UPDATE leases SET expires = $3 FROM (`+ownLeases+`
				WHERE owner = $1 AND origin = ANY($2) ORDER BY origin`+renewLock+`) o
			WHERE leases.origin = o.origin RETURNING leases.origin`, owner, keys, now.Add(ttl))
		var err error
		held, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: renew %d leases of %s: %w", len(keys), owner, err)
	}
	return held, nil
}

// NextDue implements store.Shared in one statement: one seek in urls_origin per origin that has
// a due URL, like LeaseOrigins.
func (s *Store) NextDue(ctx context.Context, owner string, now time.Time) (time.Time, error) {
	var next *time.Time
	err := s.pool.QueryRow(ctx, `SELECT min(CASE WHEN l.origin IS NULL OR l.expires <= $2 THEN d.due
				ELSE greatest(d.due, l.expires) END)
			FROM origins o
			CROSS JOIN LATERAL (SELECT next_at AS due FROM urls
				WHERE urls.origin = o.key AND next_at IS NOT NULL ORDER BY next_at LIMIT 1) d
			LEFT JOIN leases l ON l.origin = o.key
			WHERE l.origin IS NULL OR l.owner <> $1 OR l.expires <= $2`, owner, now).Scan(&next)
	if err != nil {
		return time.Time{}, fmt.Errorf("postgres: next due origin for %s: %w", owner, err)
	}
	if next == nil {
		return time.Time{}, nil
	}
	return next.UTC(), nil
}

// ReleaseOrigins implements store.Leases.
func (s *Store) ReleaseOrigins(ctx context.Context, owner string, keys []string) error {
	err := s.retry(ctx, func(ctx context.Context) error {
		var err error
		if keys == nil {
			_, err = s.pool.Exec(ctx, `DELETE FROM leases USING (`+ownLeases+` WHERE owner = $1 ORDER BY origin FOR UPDATE) o
				WHERE leases.origin = o.origin`, owner)
		} else {
			_, err = s.pool.Exec(ctx, `DELETE FROM leases USING (`+ownLeases+` WHERE owner = $1 AND origin = ANY($2)
				ORDER BY origin FOR UPDATE) o WHERE leases.origin = o.origin`, owner, keys)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: release leases of %s: %w", owner, err)
	}
	return nil
}

// retry runs a one-statement transaction again after a deadlock (processes taking over each
// other's expired leases at once) or a lost race on leases_owner, at most maxTxAttempts times in
// all.
func (s *Store) retry(ctx context.Context, fn func(ctx context.Context) error) error {
	var err error
	for range maxTxAttempts {
		if err = fn(ctx); err == nil || !retryable(err) && !ownerRace(err) {
			return err
		}
	}
	return err
}

// ownerRace reports the unique violation on leases_owner that one of two upserts of the same new
// (owner, origin) row at once meets (one worker's Lease beside its Acquire): ON CONFLICT (origin)
// arbitrates on the primary key only, so the upsert that comes second into leases_owner fails
// instead of updating. Run again, it finds the row and takes the ON CONFLICT path.
func ownerRace(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "leases_owner"
}
