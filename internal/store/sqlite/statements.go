package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// urlColumns are the columns of urls in the order scanURL reads them.
const urlColumns = `id, url, origin, kind, depth, hops, state, status, reason, rule_line,
	discovered_at, fetched_at, next_at, attempts, content_type, location, indexed, noindex, nofollow, canonical,
	etag, last_modified, warc_file, warc_offset, warc_response_id`

// originColumns are the columns of origins in the order scanOrigin reads them.
const originColumns = `key, robots_kind, robots_status, robots_body, robots_reason, robots_fetched_at,
	robots_expires_at, robots_etag, robots_last_mod, robots_failing_since, robots_failures,
	robots_retry_at, robots_as_not_found, robots_good_body, paused_until, pause_strikes,
	pause_reason, probing, sitemaps, robots_warc_file, robots_warc_offset, robots_warc_response_id, gap_ms, gap_reason`

const (
	// insertChunk bounds the rows of one multi-row INSERT of new URLs. A batch with more new URLs
	// takes several statements; one statement is prepared per row count up to insertChunk, when
	// first needed. 64 rows are 576 parameters, far below SQLite's limit of 32,766.
	insertChunk = 64
	// insertURLParams is the number of parameters of one row of an insertURLs statement.
	insertURLParams = 10
)

// statements are the writer connection's prepared statements, reused by every Commit. They are
// used under Store.writeMu.
type statements struct {
	insertOrigin, updateURL, upsertOrigin, stage *sql.Stmt
	// insertURLs[n] inserts n new URLs, ignoring known ones, and returns the ID of each row it
	// added; see insertURLsStmt.
	insertURLs map[int]*sql.Stmt
}

// preparer is a *sql.DB or a *sql.Conn.
type preparer interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

func prepare(ctx context.Context, db preparer) (*statements, error) {
	s := statements{insertURLs: map[int]*sql.Stmt{}}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&s.insertOrigin, `INSERT INTO origins (key) VALUES (?) ON CONFLICT (key) DO NOTHING`},
		{&s.stage, `INSERT OR REPLACE INTO staged (url_id, idx, title, body, nosnippet, unavailable_after, links, headings, header)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&s.updateURL, `UPDATE urls SET depth = ?, hops = ?, state = ?, status = ?, reason = ?, rule_line = ?,
			fetched_at = ?, next_at = ?, attempts = ?, content_type = ?, location = ?, indexed = ?, noindex = ?,
			nofollow = ?, canonical = ?, etag = ?, last_modified = ?, warc_file = ?, warc_offset = ?,
			warc_response_id = ? WHERE id = ?`},
		{&s.upsertOrigin, `INSERT INTO origins (` + originColumns + `)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET robots_kind = excluded.robots_kind,
			robots_status = excluded.robots_status, robots_body = excluded.robots_body,
			robots_reason = excluded.robots_reason, robots_fetched_at = excluded.robots_fetched_at,
			robots_expires_at = excluded.robots_expires_at, robots_etag = excluded.robots_etag,
			robots_last_mod = excluded.robots_last_mod, robots_failing_since = excluded.robots_failing_since,
			robots_failures = excluded.robots_failures, robots_retry_at = excluded.robots_retry_at,
			robots_as_not_found = excluded.robots_as_not_found, robots_good_body = excluded.robots_good_body,
			paused_until = excluded.paused_until, pause_strikes = excluded.pause_strikes,
			pause_reason = excluded.pause_reason, probing = excluded.probing, sitemaps = excluded.sitemaps,
			robots_warc_file = excluded.robots_warc_file, robots_warc_offset = excluded.robots_warc_offset,
			robots_warc_response_id = excluded.robots_warc_response_id, gap_ms = excluded.gap_ms,
			gap_reason = excluded.gap_reason`},
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

// insertURLsStmt returns the statement that inserts n new URLs, preparing it on first use.
func (s *statements) insertURLsStmt(ctx context.Context, db preparer, n int) (*sql.Stmt, error) {
	if st := s.insertURLs[n]; st != nil {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, `INSERT INTO urls (id, url, origin, kind, depth, hops, state, reason, discovered_at, next_at)
		VALUES `+values(n, insertURLParams)+` ON CONFLICT (id) DO NOTHING RETURNING id`)
	if err != nil {
		return nil, fmt.Errorf("prepare insert of %d URLs: %w", n, err)
	}
	s.insertURLs[n] = st
	return st, nil
}

func (s *statements) close() {
	for _, st := range []*sql.Stmt{s.insertOrigin, s.updateURL, s.upsertOrigin, s.stage} {
		if st != nil {
			st.Close()
		}
	}
	for _, st := range s.insertURLs {
		st.Close()
	}
}
