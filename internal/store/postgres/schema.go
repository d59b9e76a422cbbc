package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// migrationLock is the pg_advisory_xact_lock key that serializes migrations: several crawl
// processes starting at once take turns, and each after the first finds the schema up to date.
// The lock is per database; the schema name is part of the key so that crawls in different
// schemas of one database do not wait for each other.
const migrationLockSalt = "mandelbot schema migration"

// migrations bring a schema from version i to i+1; the version is stored in meta. Never edit a
// released step: add one.
//
// Times are timestamptz (NULL for the zero time); origin keys are COLLATE "C" so that key order
// is Go's bytewise string order. URL IDs are store.IDOf; seq keeps discovery order.
//
// An entry of the search index is a narrow docs row (what a query filters, counts and ranks on;
// toast_tuple_target moves every tsvector out of line, so the heap a common word's matches are
// counted in holds a few dozen bytes per entry) and a doc_text row (what a result shows).
var migrations = []string{
	// 1: the crawl (urls, origins, leases) and the search index.
	`CREATE TABLE origins (
		key text COLLATE "C" PRIMARY KEY,
		robots_kind integer NOT NULL DEFAULT 0,
		robots_status integer NOT NULL DEFAULT 0,
		robots_body bytea NOT NULL DEFAULT '',
		robots_reason text NOT NULL DEFAULT '',
		robots_fetched_at timestamptz,
		robots_expires_at timestamptz,
		robots_etag text NOT NULL DEFAULT '',
		robots_last_mod text NOT NULL DEFAULT '',
		robots_failing_since timestamptz,
		robots_failures integer NOT NULL DEFAULT 0,
		robots_retry_at timestamptz,
		robots_as_not_found boolean NOT NULL DEFAULT false,
		robots_good_body boolean NOT NULL DEFAULT false,
		paused_until timestamptz,
		pause_strikes integer NOT NULL DEFAULT 0,
		pause_reason text NOT NULL DEFAULT '',
		probing boolean NOT NULL DEFAULT false,
		sitemaps text[] NOT NULL DEFAULT '{}'
	);
	CREATE TABLE leases (
		origin text COLLATE "C" PRIMARY KEY,
		owner text NOT NULL,
		expires timestamptz NOT NULL
	);
	CREATE INDEX leases_owner ON leases (owner);
	CREATE SEQUENCE urls_seq;
	CREATE TABLE urls (
		id bigint PRIMARY KEY,
		seq bigint NOT NULL,
		url text NOT NULL,
		origin text COLLATE "C" NOT NULL,
		kind integer NOT NULL DEFAULT 0,
		depth integer NOT NULL DEFAULT 0,
		hops integer NOT NULL DEFAULT 0,
		state text NOT NULL,
		status integer NOT NULL DEFAULT 0,
		reason text NOT NULL DEFAULT '',
		rule_line integer NOT NULL DEFAULT 0,
		discovered_at timestamptz NOT NULL,
		fetched_at timestamptz,
		next_at timestamptz,
		attempts integer NOT NULL DEFAULT 0,
		content_type text NOT NULL DEFAULT '',
		location text NOT NULL DEFAULT '',
		indexed boolean NOT NULL DEFAULT false,
		noindex boolean NOT NULL DEFAULT false,
		nofollow boolean NOT NULL DEFAULT false,
		canonical text NOT NULL DEFAULT ''
	);
	CREATE UNIQUE INDEX urls_by_seq ON urls (seq);
	CREATE INDEX urls_origin ON urls (origin, next_at);
	CREATE TABLE staged (
		url_id bigint PRIMARY KEY,
		idx boolean NOT NULL,
		title text NOT NULL DEFAULT '',
		body text NOT NULL DEFAULT '',
		nosnippet boolean NOT NULL DEFAULT false,
		unavailable_after timestamptz,
		links bytea,
		folded boolean NOT NULL DEFAULT false
	);
	CREATE INDEX staged_unfolded ON staged (url_id) WHERE NOT folded;
	CREATE TABLE links (
		from_id bigint NOT NULL,
		to_id bigint NOT NULL,
		anchor text NOT NULL DEFAULT '',
		PRIMARY KEY (from_id, to_id, anchor)
	);
	CREATE INDEX links_to ON links (to_id);
	CREATE TABLE dirty (url_id bigint PRIMARY KEY);
	CREATE TABLE docs (
		url_id bigint PRIMARY KEY,
		link_only boolean NOT NULL DEFAULT false,
		nosnippet boolean NOT NULL DEFAULT false,
		unavailable_after timestamptz,
		inlinks integer NOT NULL DEFAULT 0,
		tsv tsvector
	) WITH (toast_tuple_target = 128);
	CREATE TABLE doc_text (
		url_id bigint PRIMARY KEY,
		title text NOT NULL DEFAULT '',
		top_anchor text NOT NULL DEFAULT '',
		anchors text NOT NULL DEFAULT '',
		body text NOT NULL DEFAULT ''
	);
	CREATE INDEX docs_tsv ON docs USING gin (tsv);`,
	// 2: the response header of each fetched page, for `export --documents` (issue 10), as
	// store.EncodeHeader cuts it; written with the page's staged document.
	`CREATE TABLE doc_headers (url_id bigint PRIMARY KEY, header bytea NOT NULL);`,
	// 3: a page's validators, for conditional revisits, and the WARC record of its last answer
	// and of each origin's robots.txt (issue 13).
	`ALTER TABLE urls ADD COLUMN etag text NOT NULL DEFAULT '',
		ADD COLUMN last_modified text NOT NULL DEFAULT '',
		ADD COLUMN warc_file text NOT NULL DEFAULT '',
		ADD COLUMN warc_offset bigint NOT NULL DEFAULT 0,
		ADD COLUMN warc_response_id text NOT NULL DEFAULT '';
	ALTER TABLE origins ADD COLUMN robots_warc_file text NOT NULL DEFAULT '',
		ADD COLUMN robots_warc_offset bigint NOT NULL DEFAULT 0,
		ADD COLUMN robots_warc_response_id text NOT NULL DEFAULT '';`,
	// 4: whether a link named a fragment of its target (issue 11: such anchor text never titles the
	// target).
	`ALTER TABLE links ADD COLUMN fragment boolean NOT NULL DEFAULT false;`,
	// 5: the headings of a page (issue 11), staged and shown; entries written before have none
	// until their page is fetched again.
	`ALTER TABLE staged ADD COLUMN headings text NOT NULL DEFAULT '';
	ALTER TABLE doc_text ADD COLUMN headings text NOT NULL DEFAULT '';`,
	// 6: the text search configuration tsConfig: 'simple' with an English Snowball stemmer and no
	// stop words (issue 11: "keys" finds "key"); every entry is marked dirty, so that the next
	// RefreshIndex rewrites its tsvector with it.
	`CREATE TEXT SEARCH DICTIONARY mandelbot_stem (TEMPLATE = snowball, Language = english);
	CREATE TEXT SEARCH CONFIGURATION mandelbot_words (COPY = simple);
	ALTER TEXT SEARCH CONFIGURATION mandelbot_words ALTER MAPPING FOR asciiword, word, numword,
		asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH mandelbot_stem;
	INSERT INTO dirty (url_id) SELECT url_id FROM docs ON CONFLICT DO NOTHING;`,
}

// ErrNewerSchema reports a schema written by a newer Mandelbot.
var ErrNewerSchema = errors.New("database schema is newer than this program knows")

// migrate creates the schema if needed and brings it to the latest version, in one transaction
// under an advisory lock, so that processes starting at once never run a step twice.
// With mustExist, a schema without a crawl is an error (ErrNoCrawl) rather than created.
func (s *Store) migrate(ctx context.Context, mustExist bool) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, migrationLockSalt+" "+s.schema); err != nil {
		return fmt.Errorf("postgres: migrate: lock: %w", err)
	}
	if mustExist {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, s.schema+".meta").Scan(&exists); err != nil {
			return fmt.Errorf("postgres: open schema %s: %w", s.schema, err)
		}
		if !exists {
			return fmt.Errorf("postgres: schema %s: %w", s.schema, ErrNoCrawl)
		}
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{s.schema}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: migrate: create schema %s: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)`); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	var version int
	var v string
	err = tx.QueryRow(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return fmt.Errorf("postgres: read schema version: %w", err)
	default:
		if version, err = strconv.Atoi(v); err != nil {
			return fmt.Errorf("postgres: schema version %q: %w", v, err)
		}
	}
	if version > len(migrations) {
		return fmt.Errorf("postgres: schema %s: version %d, known up to %d: %w", s.schema, version, len(migrations), ErrNewerSchema)
	}
	for i := version; i < len(migrations); i++ {
		if _, err := tx.Exec(ctx, migrations[i]); err != nil {
			return fmt.Errorf("postgres: migrate to %d: %w", i+1, err)
		}
	}
	if version < len(migrations) {
		if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('schema_version', $1)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(len(migrations))); err != nil {
			return fmt.Errorf("postgres: migrate: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
