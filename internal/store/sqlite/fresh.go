package sqlite

import (
	"context"
	"fmt"
	"strconv"
)

// A new store is made in one step, not by the migrations one after the other (issue 8: the
// sixteen steps made, copied, renamed and dropped the search tables four times, 40-50 ms before
// a crawl's first request, on every new store). freshIndexSchema and freshSchema are what the
// migrations make of an empty store; TestFreshSchemaIsWhatTheMigrationsMake holds them to it, so
// a new step in migrations changes them too.

// freshIndexSchema makes the index database's tables (attached as idx) and the text database's
// (attached as txt), as migrations up to step 16 leave them. It first drops what an earlier
// attempt made: its transaction writes two files, committed one after the other, and a crash
// between them, or before freshSchema commits, leaves the store at version 0, made again from
// the start.
const freshIndexSchema = `DROP TABLE IF EXISTS idx.docs;
	DROP TABLE IF EXISTS idx.links;
	DROP TABLE IF EXISTS idx.dirty;
	DROP TABLE IF EXISTS idx.waiting;
	DROP TABLE IF EXISTS idx.doc_headers;
	DROP TABLE IF EXISTS idx.fts_anchors;
	DROP TABLE IF EXISTS txt.fts;
	CREATE TABLE idx.docs (
		url_id INTEGER PRIMARY KEY,
		link_only INTEGER NOT NULL DEFAULT 0,
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		inlinks INTEGER NOT NULL DEFAULT 0,
		content_hash INTEGER NOT NULL DEFAULT 0,
		num INTEGER NOT NULL
	);
	CREATE INDEX idx.docs_num ON docs (num, url_id, link_only, unavailable_after);
	CREATE TABLE idx.links (
		from_id INTEGER NOT NULL,
		to_id INTEGER NOT NULL,
		anchor TEXT NOT NULL DEFAULT '',
		fragment INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (from_id, to_id, anchor)
	) WITHOUT ROWID;
	CREATE INDEX idx.links_to ON links (to_id);
	CREATE TABLE idx.dirty (url_id INTEGER PRIMARY KEY);
	CREATE TABLE idx.waiting (url_id INTEGER PRIMARY KEY);
	CREATE TABLE idx.doc_headers (url_id INTEGER PRIMARY KEY, header BLOB NOT NULL);
	CREATE VIRTUAL TABLE idx.fts_anchors USING fts5(anchors, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('automerge', 8);
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	CREATE VIRTUAL TABLE txt.fts USING fts5(title, headings, body, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO txt.fts (fts, rank) VALUES ('automerge', 8);
	INSERT INTO txt.fts (fts, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);`

// freshSchema makes the crawl database's tables as migrations up to step 16 leave them.
const freshSchema = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	CREATE TABLE origins (
		key TEXT PRIMARY KEY,
		robots_kind INTEGER NOT NULL DEFAULT 0,
		robots_status INTEGER NOT NULL DEFAULT 0,
		robots_body BLOB,
		robots_reason TEXT NOT NULL DEFAULT '',
		robots_fetched_at INTEGER NOT NULL DEFAULT 0,
		robots_expires_at INTEGER NOT NULL DEFAULT 0,
		robots_etag TEXT NOT NULL DEFAULT '',
		robots_last_mod TEXT NOT NULL DEFAULT '',
		robots_failing_since INTEGER NOT NULL DEFAULT 0,
		robots_failures INTEGER NOT NULL DEFAULT 0,
		robots_retry_at INTEGER NOT NULL DEFAULT 0,
		robots_as_not_found INTEGER NOT NULL DEFAULT 0,
		robots_good_body INTEGER NOT NULL DEFAULT 0,
		paused_until INTEGER NOT NULL DEFAULT 0,
		pause_strikes INTEGER NOT NULL DEFAULT 0,
		pause_reason TEXT NOT NULL DEFAULT '',
		probing INTEGER NOT NULL DEFAULT 0,
		sitemaps TEXT NOT NULL DEFAULT '[]',
		robots_warc_file TEXT NOT NULL DEFAULT '',
		robots_warc_offset INTEGER NOT NULL DEFAULT 0,
		robots_warc_response_id TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE urls (
		seq INTEGER PRIMARY KEY,
		id INTEGER NOT NULL UNIQUE,
		url TEXT NOT NULL,
		origin TEXT NOT NULL,
		kind INTEGER NOT NULL DEFAULT 0,
		depth INTEGER NOT NULL DEFAULT 0,
		hops INTEGER NOT NULL DEFAULT 0,
		state TEXT NOT NULL,
		status INTEGER NOT NULL DEFAULT 0,
		reason TEXT NOT NULL DEFAULT '',
		rule_line INTEGER NOT NULL DEFAULT 0,
		discovered_at INTEGER NOT NULL DEFAULT 0,
		fetched_at INTEGER NOT NULL DEFAULT 0,
		next_at INTEGER NOT NULL DEFAULT 0,
		attempts INTEGER NOT NULL DEFAULT 0,
		content_type TEXT NOT NULL DEFAULT '',
		location TEXT NOT NULL DEFAULT '',
		indexed INTEGER NOT NULL DEFAULT 0,
		noindex INTEGER NOT NULL DEFAULT 0,
		nofollow INTEGER NOT NULL DEFAULT 0,
		canonical TEXT NOT NULL DEFAULT '',
		etag TEXT NOT NULL DEFAULT '',
		last_modified TEXT NOT NULL DEFAULT '',
		warc_file TEXT NOT NULL DEFAULT '',
		warc_offset INTEGER NOT NULL DEFAULT 0,
		warc_response_id TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX urls_origin ON urls (origin, next_at, id);
	CREATE TABLE staged (
		seq INTEGER PRIMARY KEY,
		url_id INTEGER NOT NULL UNIQUE,
		idx INTEGER NOT NULL,
		title TEXT NOT NULL DEFAULT '',
		body TEXT NOT NULL DEFAULT '',
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		links BLOB,
		folded INTEGER NOT NULL DEFAULT 0,
		headings TEXT NOT NULL DEFAULT '',
		header BLOB
	);
	CREATE INDEX staged_folded ON staged (folded);`

// freshVersion is the schema version freshSchema and freshIndexSchema make.
const freshVersion = 16

// createFresh makes the tables of a new store (version 0) at freshVersion: the index and text
// databases' in one transaction, then the crawl database's with its version in another, so that
// the store has a version only once everything is made.
func (s *Store) createFresh(ctx context.Context) error {
	if freshVersion != len(migrations) {
		return fmt.Errorf("sqlite: the schema of a new store is version %d, the migrations make %d: update fresh.go", freshVersion, len(migrations))
	}
	for _, q := range []string{freshIndexSchema, freshSchema + `
	INSERT INTO meta (key, value) VALUES ('schema_version', '` + strconv.Itoa(freshVersion) + `');`} {
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("sqlite: create: %w", err)
		}
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			return fmt.Errorf("sqlite: create: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("sqlite: create: %w", err)
		}
	}
	return nil
}
