package postgres

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// The planner's statistics are the store's own concern (issue 31 part 4): autovacuum may be off
// (it is on the server the figures of BENCHMARKS.md come from), and a table never analyzed
// has no distinct counts, so PostgreSQL takes `id = ANY($1)` of a few hundred IDs to match
// every row and plans a sequential scan that compares each row with every element: the fold's
// link statements and the anchor generations' (5,000 targets against every link) were most of
// RefreshIndex's 349 s per 100,000 documents. The tables the crawl deletes from (staged,
// link_log, anchor_pending) also keep their dead rows until a VACUUM.
//
// So the store analyzes a table never analyzed nor vacuumed, or grown to analyzeGrowth times
// its size at its last ANALYZE or VACUUM (pg_class.relpages), once it holds analyzeMinPages:
// O(log size) times as it grows, each reading a fixed sample. These are read from the catalog,
// not from the cumulative statistics, which a backend reports up to seconds late. It vacuums a
// table once its dead rows reach vacuumGrowth times its live ones (plus vacuumMinRows). It
// looks, in one statement, before every anchor generation and after every maintainEvery
// documents this process folds; one process at a time does the work (a session advisory lock,
// tried), the others go on.
const (
	analyzeGrowth   = 2
	analyzeMinPages = 16
	vacuumGrowth    = 1.0
	vacuumMinRows   = 10_000
	// maintainEvery is how many documents a process folds between two looks.
	maintainEvery = 5_000
	// maintainLockSalt, with the schema's name, keys the advisory lock of the upkeep.
	maintainLockSalt = "mandelbot table upkeep"
)

// upkeep counts the documents this process folded since its last look. The zero value is
// ready; it is safe for concurrent use.
type upkeep struct {
	mu     sync.Mutex
	folded int
}

// due adds n folded documents and reports whether a look is due (and resets the count).
func (u *upkeep) due(n int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.folded += n
	if u.folded < maintainEvery {
		return false
	}
	u.folded = 0
	return true
}

// tableUpkeep is what a table of the schema needs: ANALYZE, VACUUM, or both.
type tableUpkeep struct {
	table           string
	analyze, vacuum bool
}

// maintain analyzes and vacuums the tables of the schema that need it (see above), unless
// another process of the crawl is doing so. It returns the tables it worked on.
func (s *Store) maintain(ctx context.Context) ([]string, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: table upkeep: %w", err)
	}
	defer conn.Release()
	key := maintainLockSalt + " " + s.schema
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, key).Scan(&locked); err != nil {
		return nil, fmt.Errorf("postgres: table upkeep: %w", err)
	}
	if !locked {
		return nil, nil
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key)
	rows, _ := conn.Query(ctx, sqlUpkeep, s.schema, analyzeMinPages, analyzeGrowth, vacuumMinRows, vacuumGrowth)
	var todo []tableUpkeep
	var t tableUpkeep
	if _, err := pgx.ForEachRow(rows, []any{&t.table, &t.analyze, &t.vacuum}, func() error {
		if t.analyze || t.vacuum {
			todo = append(todo, t)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("postgres: table upkeep: %w", err)
	}
	var done []string
	for _, t := range todo {
		sql := `ANALYZE `
		if t.vacuum {
			sql = `VACUUM (ANALYZE) `
		}
		if _, err := conn.Exec(ctx, sql+pgx.Identifier{s.schema, t.table}.Sanitize()); err != nil {
			return done, fmt.Errorf("postgres: table upkeep: %s%s: %w", sql, t.table, err)
		}
		done = append(done, t.table)
	}
	return done, nil
}

// sqlUpkeep lists the tables of schema $1 with whether each needs ANALYZE (it has $2 pages or
// more, and was never analyzed nor vacuumed, reltuples -1, or has $3 times the pages of its last
// ANALYZE or VACUUM) and VACUUM ($4 dead rows and $5 times its live ones).
const sqlUpkeep = `SELECT c.relname,
		pg_relation_size(c.oid) >= $2 * current_setting('block_size')::bigint
			AND (c.reltuples < 0 OR pg_relation_size(c.oid) >= $3 * c.relpages::bigint * current_setting('block_size')::bigint),
		COALESCE(s.n_dead_tup >= $4 + $5 * s.n_live_tup, false)
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
	WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`
