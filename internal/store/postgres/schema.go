package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// schemaLockSalt is the pg_advisory_xact_lock key that serializes the making of a schema:
// several crawl processes starting at once take turns, and each after the first finds the
// schema made. The lock is per database; the schema name is part of the key so that crawls in
// different schemas of one database do not wait for each other.
const schemaLockSalt = "mandelbot schema migration"

// The store has one schema (issue 26: nothing was ever released, so there are no migrations
// until a release promises upgrades). Its meta table holds the row layoutKey = schemaVersion,
// the layout of its tables, which changes whenever a build changes them; builds before the
// layout row kept a schema_version row (1 to 6). prepareSchema refuses both kinds of earlier
// crawl before anything is written (ErrEarlierBuild). Layout 1 was the single schema of issue
// 26 part 4; layout 2 added the head index, the anchor generations (issue 31 part 4) and the
// origins' gap (issue 29); layout 3 took the text out of staged (issue 31 part 4: a document's
// text is written once, to doc_text, at Commit) and the statistics off docs.tsv and urls' text;
// layout 4 keyed links by from_id alone, not by (from_id, to_id, anchor) (issue 31 part 4: that
// key held every link's anchor text, the crawl's largest B-tree).
const (
	layoutKey     = "layout"
	schemaVersion = 4
	// firstLayout is the first layout a meta row names.
	firstLayout = 1
)

// schemaSQL makes the crawl's tables in a new schema (the search_path).
//
// Times are timestamptz (NULL for the zero time); origin keys are COLLATE "C" so that key order
// is Go's bytewise string order. URL IDs are store.IDOf; seq keeps discovery order. The unique
// index leases_owner makes a lease's owner a key column: changing it conflicts with the fence's
// FOR KEY SHARE, changing expires does not (leases.go).
//
// An entry of the search index is a heads row (issue 31 part 4, the head index: the title, headings
// and URL words in base, the anchor text in atsv, one small GIN index over both; anchor text is
// rewritten there alone, in generations: anchors.go) and, for a fetched document, a docs row (the
// full tsvector, written once per fetch: title, headings, URL words and body; what a query filters
// on; toast_tuple_target moves the tsvector out of line, so the heap a common word's matches are
// counted in holds a few dozen bytes per entry) and a doc_text row (what a result shows, written
// once per fetch by Commit; a staged row holds a document's flags and links until its fold).
// docs.tsv has no planner statistics (STATISTICS 0): they were nearly all of the store's ANALYZE of
// docs (every sampled tsvector read from TOAST), and a search reads the GIN index whatever a word's
// frequency (enable_seqscan off, search.go). Nor have the text columns of urls that no statement
// filters, joins or groups on (the URL itself is looked up with its ID): they were two thirds of
// the store's ANALYZE of urls. links has no primary key: the fold writes a document's links, each
// (from_id, to_id, anchor) once, and deletes them by from_id, so its two indexes are on from_id
// and to_id alone, which deduplication keeps small (issue 31 part 4: the key (from_id, to_id,
// anchor) held every link's anchor text: 58 MB at 180,000 pages against links_to's 13 MB, read
// back from the operating system 52,859 times by the fold's deletes at random from_ids).
// link_log is the fold's append-only log of link targets whose anchor text changed;
// anchor_pending the targets a generation left behind until their next power of two. The text
// search configuration mandelbot_words is 'simple' (no stop words) with an English
// Snowball stemmer (issue 11: "keys" finds "key").
const schemaSQL = `CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
	CREATE TABLE origins (
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
		sitemaps text[] NOT NULL DEFAULT '{}',
		robots_warc_file text NOT NULL DEFAULT '',
		robots_warc_offset bigint NOT NULL DEFAULT 0,
		robots_warc_response_id text NOT NULL DEFAULT '',
		gap_ms bigint NOT NULL DEFAULT 0,
		gap_reason text NOT NULL DEFAULT ''
	);
	CREATE TABLE leases (
		origin text COLLATE "C" PRIMARY KEY,
		owner text NOT NULL,
		expires timestamptz NOT NULL
	);
	CREATE UNIQUE INDEX leases_owner ON leases (owner, origin);
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
		canonical text NOT NULL DEFAULT '',
		etag text NOT NULL DEFAULT '',
		last_modified text NOT NULL DEFAULT '',
		warc_file text NOT NULL DEFAULT '',
		warc_offset bigint NOT NULL DEFAULT 0,
		warc_response_id text NOT NULL DEFAULT ''
	);
	CREATE UNIQUE INDEX urls_by_seq ON urls (seq);
	CREATE INDEX urls_origin ON urls (origin, next_at);
	ALTER TABLE urls ALTER COLUMN url SET STATISTICS 0, ALTER COLUMN reason SET STATISTICS 0,
		ALTER COLUMN content_type SET STATISTICS 0, ALTER COLUMN location SET STATISTICS 0,
		ALTER COLUMN canonical SET STATISTICS 0, ALTER COLUMN etag SET STATISTICS 0,
		ALTER COLUMN last_modified SET STATISTICS 0, ALTER COLUMN warc_file SET STATISTICS 0,
		ALTER COLUMN warc_response_id SET STATISTICS 0;
	CREATE TABLE staged (
		url_id bigint PRIMARY KEY,
		idx boolean NOT NULL,
		nosnippet boolean NOT NULL DEFAULT false,
		unavailable_after timestamptz,
		links bytea
	);
	CREATE TABLE links (
		from_id bigint NOT NULL,
		to_id bigint NOT NULL,
		anchor text NOT NULL DEFAULT '',
		fragment boolean NOT NULL DEFAULT false
	);
	CREATE INDEX links_from ON links (from_id);
	CREATE INDEX links_to ON links (to_id);
	CREATE TABLE link_log (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, to_id bigint NOT NULL);
	CREATE TABLE anchor_pending (to_id bigint PRIMARY KEY);
	CREATE TABLE docs (
		url_id bigint PRIMARY KEY,
		nosnippet boolean NOT NULL DEFAULT false,
		unavailable_after timestamptz,
		tsv tsvector NOT NULL
	) WITH (toast_tuple_target = 128);
	CREATE TABLE doc_text (
		url_id bigint PRIMARY KEY,
		title text NOT NULL DEFAULT '',
		body text NOT NULL DEFAULT '',
		headings text NOT NULL DEFAULT ''
	);
	CREATE INDEX docs_tsv ON docs USING gin (tsv);
	ALTER TABLE docs ALTER COLUMN tsv SET STATISTICS 0;
	CREATE TABLE heads (
		url_id bigint PRIMARY KEY,
		link_only boolean NOT NULL,
		base tsvector NOT NULL,
		atsv tsvector NOT NULL DEFAULT '',
		anchors text NOT NULL DEFAULT '',
		top_anchor text NOT NULL DEFAULT '',
		anchors_at integer NOT NULL DEFAULT 0
	);
	CREATE INDEX heads_head ON heads USING gin ((base || atsv));
	CREATE TABLE doc_headers (url_id bigint PRIMARY KEY, header bytea NOT NULL);
	CREATE TEXT SEARCH DICTIONARY mandelbot_stem (TEMPLATE = snowball, Language = english);
	CREATE TEXT SEARCH CONFIGURATION mandelbot_words (COPY = simple);
	ALTER TEXT SEARCH CONFIGURATION mandelbot_words ALTER MAPPING FOR asciiword, word, numword,
		asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH mandelbot_stem;`

// ErrEarlierBuild reports a schema made by an earlier Mandelbot build, which this build does not
// read (there are no migrations: issue 26).
var ErrEarlierBuild = errors.New("this crawl was made by an earlier Mandelbot build; this build cannot read it")

// ErrNewerSchema reports a schema written by a newer Mandelbot.
var ErrNewerSchema = errors.New("database schema is newer than this program knows")

// ErrNotAStore reports a schema whose meta table is not a Mandelbot crawl's.
var ErrNotAStore = errors.New("not a Mandelbot crawl")

// prepareSchema creates the crawl's schema if it has none, or checks that it is this build's,
// in one transaction under an advisory lock, so that processes starting at once never make it
// twice. A schema of another version is refused before anything is written. With mustExist, a
// schema without a crawl is an error (ErrNoCrawl) rather than created.
func (s *Store) prepareSchema(ctx context.Context, mustExist bool) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: open schema %s: %w", s.schema, err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, schemaLockSalt+" "+s.schema); err != nil {
		return fmt.Errorf("postgres: open schema %s: lock: %w", s.schema, err)
	}
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, pgx.Identifier{s.schema, "meta"}.Sanitize()).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: open schema %s: %w", s.schema, err)
	}
	if exists {
		return s.checkSchema(ctx, tx)
	}
	if mustExist {
		return fmt.Errorf("postgres: schema %s: %w", s.schema, ErrNoCrawl)
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{s.schema}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, schemaSQL); err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2)`, layoutKey, strconv.Itoa(schemaVersion)); err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", s.schema, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", s.schema, err)
	}
	return nil
}

// checkSchema reads, in tx, which crawl the schema's meta table describes, and refuses any
// other than this build's.
func (s *Store) checkSchema(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT key, value FROM meta WHERE key IN ($1, 'schema_version')`, layoutKey)
	if err != nil {
		return fmt.Errorf("postgres: open schema %s: %w", s.schema, err)
	}
	marks := map[string]string{}
	var k, v string
	if _, err := pgx.ForEachRow(rows, []any{&k, &v}, func() error { marks[k] = v; return nil }); err != nil {
		return fmt.Errorf("postgres: open schema %s: %w", s.schema, err)
	}
	layout, ok := marks[layoutKey]
	if !ok {
		if old, ok := marks["schema_version"]; ok {
			return fmt.Errorf("postgres: schema %s: %w (its schema is %s of the earlier history; this build's is the new %d, and it does not convert crawls). Start a new crawl in another schema (--store postgres://...?schema=NAME), or drop this one (DROP SCHEMA %s CASCADE)",
				s.schema, ErrEarlierBuild, old, schemaVersion, s.schema)
		}
		return fmt.Errorf("postgres: schema %s: its meta table has no %s row: %w", s.schema, layoutKey, ErrNotAStore)
	}
	version, err := strconv.Atoi(layout)
	switch {
	case err != nil || version < firstLayout:
		return fmt.Errorf("postgres: schema %s: %s %q: %w", s.schema, layoutKey, layout, ErrNotAStore)
	case version < schemaVersion:
		return fmt.Errorf("postgres: schema %s: %w (its tables are layout %d; this build's are layout %d, and it does not convert crawls). Start a new crawl in another schema (--store postgres://...?schema=NAME), or drop this one (DROP SCHEMA %s CASCADE)",
			s.schema, ErrEarlierBuild, version, schemaVersion, s.schema)
	case version > schemaVersion:
		return fmt.Errorf("postgres: schema %s: version %d, this build knows up to %d: %w (use a newer mandelbot)", s.schema, version, schemaVersion, ErrNewerSchema)
	}
	return nil
}
