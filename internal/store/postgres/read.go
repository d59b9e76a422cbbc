package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// dueQuery reads up to $3 due URLs of origin $1 at $2, shallowest first, then in discovery order.
const dueQuery = `SELECT ` + urlColumns + ` FROM urls
	WHERE origin = $1 AND next_at <= $2 ORDER BY depth, seq LIMIT $3`

// DueURLs implements store.Queue.
func (s *Store) DueURLs(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
	rows, _ := s.pool.Query(ctx, dueQuery, origin, now, limit)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.URL, error) { return scanURL(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: due URLs of %s: %w", origin, err)
	}
	return out, nil
}

// LoadOrigin implements store.Queue: the record, the due URLs and the IDs of every URL of the
// origin, read in one repeatable-read transaction (a consistent snapshot) sent as one batch: one
// round trip, not five (issue 31: a worker taking over thousands of origins waited on their
// loads, about 3 ms each one at a time, 12 ms at a load average of 20).
func (s *Store) LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	out, err := s.loadOrigin(ctx, key, now, limit)
	if err != nil {
		return store.OriginLoad{}, fmt.Errorf("postgres: load origin %s: %w", key, err)
	}
	return out, nil
}

func (s *Store) loadOrigin(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
	var out store.OriginLoad
	b := &pgx.Batch{}
	b.Queue(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`)
	b.Queue(`SELECT `+originColumns+` FROM origins WHERE key = $1`, key)
	b.Queue(dueQuery, key, now, limit+1)
	b.Queue(`SELECT id, next_at, kind = $2 AND state IN ($3, $4) FROM urls WHERE origin = $1`,
		key, int(store.KindPage), string(store.StateFetched), string(store.StateError))
	b.Queue(`COMMIT`)
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return out, err
	}
	o, err := scanOrigin(br.QueryRow())
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return out, err
	default:
		out.Origin, out.Known = o, true
	}
	rows, _ := br.Query()
	out.Due, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.URL, error) { return scanURL(r) })
	if err != nil {
		return out, err
	}
	if len(out.Due) > limit {
		out.Due, out.More = out.Due[:limit], true
	}
	rows, _ = br.Query()
	var id int64
	var next pgtype.Timestamptz
	var requested bool
	_, err = pgx.ForEachRow(rows, []any{&id, &next, &requested}, func() error {
		out.IDs = append(out.IDs, id)
		if !next.Valid || next.Time.After(now) {
			out.Waiting = append(out.Waiting, id)
		}
		if requested {
			out.Requested++
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	if _, err := br.Exec(); err != nil {
		return out, err
	}
	return out, br.Close()
}

// Origin implements store.Reader.
func (s *Store) Origin(ctx context.Context, key string) (store.Origin, bool, error) {
	o, err := scanOrigin(s.pool.QueryRow(ctx, `SELECT `+originColumns+` FROM origins WHERE key = $1`, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Origin{}, false, nil
	}
	if err != nil {
		return store.Origin{}, false, fmt.Errorf("postgres: origin %s: %w", key, err)
	}
	return o, true, nil
}

// EachURL implements store.Reader, streaming rows in discovery order.
func (s *Store) EachURL(ctx context.Context, fn func(store.URL) error) error {
	rows, err := s.pool.Query(ctx, `SELECT `+urlColumns+` FROM urls ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("postgres: list URLs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		u, err := scanURL(rows)
		if err != nil {
			return fmt.Errorf("postgres: list URLs: %w", err)
		}
		if err := fn(u); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: list URLs: %w", err)
	}
	return nil
}

// EachOrigin implements store.Reader, streaming rows in key order (bytewise: COLLATE "C").
func (s *Store) EachOrigin(ctx context.Context, fn func(store.Origin) error) error {
	rows, err := s.pool.Query(ctx, `SELECT `+originColumns+` FROM origins ORDER BY key`)
	if err != nil {
		return fmt.Errorf("postgres: list origins: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		o, err := scanOrigin(rows)
		if err != nil {
			return fmt.Errorf("postgres: list origins: %w", err)
		}
		if err := fn(o); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: list origins: %w", err)
	}
	return nil
}

// Counts implements store.Reader: per origin and state, then store.Effective with the origin's
// pause and robots.txt status at now.
func (s *Store) Counts(ctx context.Context, now time.Time) (map[store.State]int, error) {
	rows, _ := s.pool.Query(ctx, `SELECT c.state, c.n, `+originStatusColumns+`
		FROM (SELECT origin, state, COUNT(*) AS n FROM urls GROUP BY origin, state) c
		LEFT JOIN origins ON origins.key = c.origin`)
	out := map[store.State]int{}
	var st string
	var n int
	var os originStatus
	_, err := pgx.ForEachRow(rows, append([]any{&st, &n}, os.dest()...), func() error {
		eff, _ := store.Effective(store.State(st), "", os.status(), now)
		out[eff] += n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: counts: %w", err)
	}
	return out, nil
}

// Seeds implements store.Queue.
func (s *Store) Seeds(ctx context.Context) ([]string, error) {
	rows, _ := s.pool.Query(ctx, `SELECT url FROM urls WHERE depth = 0 AND hops = 0 AND kind = 0 ORDER BY seq`)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: seeds: %w", err)
	}
	return out, nil
}
