package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// urlColumns are the columns of urls in the order scanURL reads them.
const urlColumns = `id, url, origin, kind, depth, hops, state, status, reason, rule_line,
	discovered_at, fetched_at, next_at, attempts, content_type, location, indexed, noindex, nofollow`

// originColumns are the columns of origins in the order scanOrigin reads them.
const originColumns = `key, robots_kind, robots_status, robots_body, robots_reason, robots_fetched_at,
	robots_expires_at, robots_etag, robots_last_mod, robots_failing_since, robots_failures,
	robots_retry_at, robots_as_not_found, robots_good_body, paused_until, pause_strikes,
	pause_reason, probing, sitemaps`

// statements are the writer's prepared statements, reused by every Commit.
type statements struct {
	insertURL, insertOrigin, updateURL, upsertOrigin *sql.Stmt
}

func prepare(ctx context.Context, db *sql.DB) (*statements, error) {
	var s statements
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&s.insertURL, `INSERT INTO urls (url, origin, kind, depth, hops, state, reason, discovered_at, next_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING RETURNING id`},
		{&s.insertOrigin, `INSERT INTO origins (key) VALUES (?) ON CONFLICT (key) DO NOTHING`},
		{&s.updateURL, `UPDATE urls SET depth = ?, hops = ?, state = ?, status = ?, reason = ?, rule_line = ?,
			fetched_at = ?, next_at = ?, attempts = ?, content_type = ?, location = ?, indexed = ?, noindex = ?,
			nofollow = ? WHERE id = ?`},
		{&s.upsertOrigin, `INSERT INTO origins (` + originColumns + `)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET robots_kind = excluded.robots_kind,
			robots_status = excluded.robots_status, robots_body = excluded.robots_body,
			robots_reason = excluded.robots_reason, robots_fetched_at = excluded.robots_fetched_at,
			robots_expires_at = excluded.robots_expires_at, robots_etag = excluded.robots_etag,
			robots_last_mod = excluded.robots_last_mod, robots_failing_since = excluded.robots_failing_since,
			robots_failures = excluded.robots_failures, robots_retry_at = excluded.robots_retry_at,
			robots_as_not_found = excluded.robots_as_not_found, robots_good_body = excluded.robots_good_body,
			paused_until = excluded.paused_until, pause_strikes = excluded.pause_strikes,
			pause_reason = excluded.pause_reason, probing = excluded.probing, sitemaps = excluded.sitemaps`},
	} {
		st, err := db.PrepareContext(ctx, p.sql)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("sqlite: prepare: %w", err)
		}
		*p.dst = st
	}
	return &s, nil
}

func (s *statements) close() {
	for _, st := range []*sql.Stmt{s.insertURL, s.insertOrigin, s.updateURL, s.upsertOrigin} {
		if st != nil {
			st.Close()
		}
	}
}
