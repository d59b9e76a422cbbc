package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
)

// The store has one schema (issue 26: nothing was ever released, so there are no migrations
// until a release promises upgrades), made in one step by createSchema. Its number, the layout,
// changes whenever a build changes the tables: a store of an earlier layout (firstLayout up to
// schemaVersion-1) is an earlier build's store and is refused before anything is written
// (ErrEarlierBuild). Layout 1 was the single schema of issue 26 part 4; layout 2 added the links
// log, the folded table, docs keyed by entry number (issue 26 part 2), the head index (part 3)
// and the origins' gap (issue 29);
// layout 3 dropped the waiting table (anchor text in generations, issue 26 part 2); layout 4 keys
// the frontier index urls_origin (origin, next_at) without the URL ID, so that its rowid, the
// discovery order, puts a fetched entry where the next fetches' go (issue 26, layout-plan.md),
// and gives dirty the bounds of its entries' inlinks (anchors.go); layout 5 makes the crawl
// database with auto_vacuum=INCREMENTAL, so that RefreshIndex gives the staged text's free pages
// back (reclaim.go); layout 6 makes fts_anchors contentless (contentless_delete=1): an anchor
// row is replaced without its old text read back and tokenized again, and the text, which every
// generation rewrote at random entry numbers, is not kept (fts.go); layout 7 keeps the entries'
// own text (fts, head) in the index database, written by the index writer in the fold's
// transaction, where a text database of its own had a third writer (attach.go).
//
// The crawl database says what it is in its header, where an earlier build never wrote: PRAGMA
// application_id is applicationID and user_version is schemaVersion. Earlier builds kept a
// schema_version row in meta (1 to 16) and left both header fields 0, so none of their stores,
// whatever its version, is taken for this one: checkSchema refuses them before anything is
// written (ErrEarlierBuild).

const (
	// applicationID marks a Mandelbot crawl database ("MBOT").
	applicationID = 0x4d424f54
	// schemaVersion is the layout of the schema below.
	schemaVersion = 7
	// firstLayout is the first layout marked in the header; earlier builds marked none.
	firstLayout = 1
)

// ftsHashSize is the FTS5 'hashsize' of the search index (issue 8): the terms of this many bytes
// of indexed text are kept in the writer's memory before they are written as one segment. At
// FTS5's default of 1 MiB an indexing chunk of tens of MB of text was flushed as dozens of small
// segments, and merging them was a tenth of a crawl's CPU.
const (
	ftsHashSize    = 16 << 20
	ftsHashSizeSQL = "16777216" // ftsHashSize, as the schema's SQL spells it
)

// indexSchema makes the index database's tables (attached as idx): see attach.go for who writes
// which, fts.go for the search index and nums.go for the entries' numbers. It first drops what
// an earlier attempt made: a new store's two files are committed one after the other, and a
// crash between them, or before crawlSchema commits, leaves a crawl database without tables,
// made again from the start.
const indexSchema = `DROP TABLE IF EXISTS idx.docs;
	DROP TABLE IF EXISTS idx.links;
	DROP TABLE IF EXISTS idx.folded;
	DROP TABLE IF EXISTS idx.link_log;
	DROP TABLE IF EXISTS idx.dirty;
	DROP TABLE IF EXISTS idx.fts_anchors;
	DROP TABLE IF EXISTS idx.fts;
	DROP TABLE IF EXISTS idx.head;
	CREATE TABLE idx.docs (
		num INTEGER PRIMARY KEY,
		url_id INTEGER NOT NULL UNIQUE,
		link_only INTEGER NOT NULL DEFAULT 0,
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		inlinks INTEGER NOT NULL DEFAULT 0,
		content_hash INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE idx.links (
		to_id INTEGER NOT NULL,
		from_id INTEGER NOT NULL,
		anchor TEXT NOT NULL DEFAULT '',
		fragment INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (to_id, from_id, anchor)
	) WITHOUT ROWID;
	CREATE TABLE idx.folded (seq INTEGER PRIMARY KEY, url_id INTEGER NOT NULL UNIQUE, header BLOB NOT NULL, links BLOB NOT NULL);
	CREATE TABLE idx.link_log (
		seq INTEGER PRIMARY KEY,
		to_id INTEGER NOT NULL,
		from_id INTEGER NOT NULL,
		anchor TEXT NOT NULL,
		fragment INTEGER NOT NULL,
		added INTEGER NOT NULL
	);
	CREATE TABLE idx.dirty (url_id INTEGER PRIMARY KEY, lo INTEGER, hi INTEGER);
	CREATE VIRTUAL TABLE idx.fts_anchors USING fts5(anchors, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('automerge', 8);
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	CREATE VIRTUAL TABLE idx.fts USING fts5(title, headings, body, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO idx.fts (fts, rank) VALUES ('automerge', 8);
	INSERT INTO idx.fts (fts, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	CREATE VIRTUAL TABLE idx.head USING fts5(title, headings, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO idx.head (head, rank) VALUES ('automerge', 8);
	INSERT INTO idx.head (head, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);`

// crawlSchema makes the crawl database's tables, and marks the database as this schema's.
//
// URL IDs are store.IDOf of the URL (the crawler names URLs without asking the store); seq keeps
// discovery order as the rowid. Documents are staged at commit, with their links and response
// header, and indexed later (index.go). meta holds settings by key.
//
// urls_origin, the frontier's index, is (origin, next_at) and the rowid: an origin's URLs never
// due (next_at 0, fetched) in discovery order, then its due ones by due time. A crawl fetches an
// origin's URLs in about the order it found them, so a fetch moves the entry from the front of
// the due ones to the end of the fetched ones, next to it, and new URLs join the end: a commit
// changes a page or two of an origin's index however many URLs it has (issue 26). The URL ID,
// once in the key, put each fetched entry at a random place among the origin's fetched ones.
const crawlSchema = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
		robots_warc_response_id TEXT NOT NULL DEFAULT '',
		gap_ms INTEGER NOT NULL DEFAULT 0,
		gap_reason TEXT NOT NULL DEFAULT ''
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
	CREATE INDEX urls_origin ON urls (origin, next_at);
	CREATE TABLE staged (
		seq INTEGER PRIMARY KEY,
		url_id INTEGER NOT NULL UNIQUE,
		idx INTEGER NOT NULL,
		title TEXT NOT NULL DEFAULT '',
		body TEXT NOT NULL DEFAULT '',
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		links BLOB,
		headings TEXT NOT NULL DEFAULT '',
		header BLOB
	);`

// markSQL marks the crawl database as this schema's, in crawlSchema's transaction.
var markSQL = `PRAGMA application_id = ` + strconv.Itoa(applicationID) + `;
	PRAGMA user_version = ` + strconv.Itoa(schemaVersion) + `;`

// createSchema makes the tables of a new store: the index database's in one transaction, then
// the crawl database's with its header marks in another, so that the store is marked only once
// everything is made. conn is the crawl database's writer, with the index database attached
// read-write.
func createSchema(ctx context.Context, conn *sql.Conn) error {
	for _, q := range []string{indexSchema, crawlSchema + markSQL} {
		tx, err := conn.BeginTx(ctx, nil)
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

// rowQuerier is a *sql.DB or a *sql.Conn.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ErrEarlierBuild reports a store made by an earlier Mandelbot build, whose schema this build
// does not read (there are no migrations: issue 26).
var ErrEarlierBuild = errors.New("this store was made by an earlier Mandelbot build; this build cannot read it")

// ErrNewerSchema reports a store made by a newer Mandelbot.
var ErrNewerSchema = errors.New("the store's schema is newer than this program knows")

// ErrNotAStore reports a file that is an SQLite database but not a Mandelbot crawl database.
var ErrNotAStore = errors.New("not a Mandelbot crawl database")

// schemaState is what checkSchema found.
type schemaState int

const (
	schemaEmpty   schemaState = iota // a database with no tables: a new store, to create
	schemaCurrent                    // this build's schema
)

// readSchema tells from q's main database which store it is, reading only: an empty one, this
// build's, or (an error) an earlier build's, a newer one's or none of Mandelbot's.
func readSchema(ctx context.Context, q rowQuerier, path string) (schemaState, error) {
	var app, version, objects int
	if err := q.QueryRowContext(ctx, `SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_master)`).Scan(&app, &version, &objects); err != nil {
		return 0, fmt.Errorf("sqlite: open %s: read its schema: %w", path, err)
	}
	switch {
	case app == applicationID && version == schemaVersion:
		return schemaCurrent, nil
	case app == applicationID && version > schemaVersion:
		return 0, fmt.Errorf("sqlite: open %s: schema %d, this build knows up to %d: %w (use a newer mandelbot)", path, version, schemaVersion, ErrNewerSchema)
	case app == applicationID && version >= firstLayout:
		return 0, fmt.Errorf("sqlite: open %s: %w (its tables are layout %d; this build's are layout %d, and it does not convert stores). Start a new crawl with another --data directory (or --store), or delete %s and the files beside it (%s, and %s if an earlier build left it)",
			path, ErrEarlierBuild, version, schemaVersion, path, indexPath(path), oldTextPath(path))
	case app == applicationID:
		return 0, fmt.Errorf("sqlite: open %s: schema %d: %w", path, version, ErrNotAStore)
	case app == 0 && objects == 0:
		return schemaEmpty, nil
	case app != 0:
		return 0, fmt.Errorf("sqlite: open %s: application_id %#x: %w", path, app, ErrNotAStore)
	}
	var old string
	if err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&old); err != nil {
		return 0, fmt.Errorf("sqlite: open %s: %w", path, ErrNotAStore)
	}
	if _, err := strconv.Atoi(old); err != nil {
		return 0, fmt.Errorf("sqlite: open %s: schema version %q: %w", path, old, ErrNotAStore)
	}
	return 0, fmt.Errorf("sqlite: open %s: %w (its schema is %s of the earlier history; this build's is the new %d, and it does not convert stores). Start a new crawl with another --data directory (or --store), or delete %s and the files beside it (%s, and %s if an earlier build left it)",
		path, ErrEarlierBuild, old, schemaVersion, path, indexPath(path), oldTextPath(path))
}
