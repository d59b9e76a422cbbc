package sqlite

// migrations bring a database from schema version i to i+1; the version is stored in meta.
// Never edit a released step: add one, and make fresh.go (a new store's schema, made in one step)
// follow it.
var migrations = []string{
	// 1: urls and origins.
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
		sitemaps TEXT NOT NULL DEFAULT '[]'
	);
	CREATE TABLE urls (
		id INTEGER PRIMARY KEY,
		url TEXT NOT NULL UNIQUE,
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
		nofollow INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX urls_due ON urls (origin, next_at) WHERE next_at > 0;
	CREATE INDEX urls_next ON urls (next_at) WHERE next_at > 0;`,
	// 2: the search index (fts.go).
	indexSchema,
	// 3: LeaseOrigins seeks urls_due once per origin; urls_next only cost two more page writes
	// per commit.
	`DROP INDEX urls_next;`,
	// 4: the canonical link a page names (<link rel=canonical>), recorded (issue 4).
	`ALTER TABLE urls ADD COLUMN canonical TEXT NOT NULL DEFAULT '';`,
	// 5: URL IDs are store.IDOf of the URL (the crawler names URLs without asking the store),
	// seq keeps discovery order as the rowid, and the unique index is on the 8-byte ID rather
	// than the URL text. Documents are staged at commit and indexed later (index.go). Only an
	// empty store takes this step: migrate refuses a store holding URLs with the old IDs.
	`DROP TABLE urls;
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
		canonical TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX urls_origin ON urls (origin, next_at, id);
	DELETE FROM links; DELETE FROM docs; DELETE FROM fts; DELETE FROM dirty;
	CREATE TABLE staged (
		seq INTEGER PRIMARY KEY,
		url_id INTEGER NOT NULL UNIQUE,
		idx INTEGER NOT NULL,
		title TEXT NOT NULL DEFAULT '',
		body TEXT NOT NULL DEFAULT '',
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		links BLOB,
		folded INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX staged_folded ON staged (folded);
	INSERT INTO fts (fts, rank) VALUES ('automerge', 8);`,
	// 6: the response header of each fetched page, for `export --documents` (issue 10), as
	// store.EncodeHeader cuts it; written with the page's staged document.
	`CREATE TABLE doc_headers (url_id INTEGER PRIMARY KEY, header BLOB NOT NULL);`,
	// 7: a page's validators, for conditional revisits, and the WARC record of its last answer
	// and of each origin's robots.txt (issue 13).
	`ALTER TABLE urls ADD COLUMN etag TEXT NOT NULL DEFAULT '';
	ALTER TABLE urls ADD COLUMN last_modified TEXT NOT NULL DEFAULT '';
	ALTER TABLE urls ADD COLUMN warc_file TEXT NOT NULL DEFAULT '';
	ALTER TABLE urls ADD COLUMN warc_offset INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE urls ADD COLUMN warc_response_id TEXT NOT NULL DEFAULT '';
	ALTER TABLE origins ADD COLUMN robots_warc_file TEXT NOT NULL DEFAULT '';
	ALTER TABLE origins ADD COLUMN robots_warc_offset INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE origins ADD COLUMN robots_warc_response_id TEXT NOT NULL DEFAULT '';`,
	// 8: whether a link named a fragment of its target (issue 11: such anchor text never titles
	// the target).
	`ALTER TABLE links ADD COLUMN fragment INTEGER NOT NULL DEFAULT 0;`,
	// 9: the search index gets a headings and an identifier-parts column and a stemmer
	// (ftsColumns); entries keep their text, with empty headings until their page is fetched
	// again. Staged documents keep their headings.
	`CREATE VIRTUAL TABLE fts_new USING fts5(title, anchors, headings, body, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO fts_new (rowid, title, anchors, headings, body, urlwords, idents)
		SELECT rowid, title, anchors, '', body, urlwords, '' FROM fts;
	DROP TABLE fts;
	ALTER TABLE fts_new RENAME TO fts;
	INSERT INTO fts (fts, rank) VALUES ('automerge', 8);
	ALTER TABLE staged ADD COLUMN headings TEXT NOT NULL DEFAULT '';`,
	// 10: each document's index.ContentHash, for index.Dedupe without reading its text at query
	// time; 0 (unknown) until the entry is rewritten.
	`ALTER TABLE docs ADD COLUMN content_hash INTEGER NOT NULL DEFAULT 0;`,
	// 11: FTS5's pending-terms hash of ftsHashSize bytes (issue 8): at FTS5's default of 1 MiB an
	// indexing chunk of tens of MB of text was flushed as dozens of small segments, and merging
	// them was a tenth of a crawl's CPU. A setting, not a table: nothing to copy.
	`INSERT INTO fts (fts, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);`,
	// 12: the link-only entries RefreshDocuments left for the next RefreshIndex (issue 8): kept
	// apart from dirty, so that each refresh during a crawl reads only what changed since the
	// last one, not every queued URL that links point to.
	`CREATE TABLE waiting (url_id INTEGER PRIMARY KEY);`,
	// 13: a document's response header is staged with it, and moved to doc_headers by the fold
	// (issue 8): doc_headers is keyed by URL ID, a hash, so each crawl commit wrote a page of it
	// at random for every document; the fold writes a chunk's headers at once. NULL in the rows
	// staged before this step, whose headers are in doc_headers already.
	`ALTER TABLE staged ADD COLUMN header BLOB;`,
	// 14: a page's own text and the anchor text of links to it are two FTS5 tables (issue 8):
	// fts holds what the page says (written once per fetch, by the fold, during the crawl) and
	// a link-only entry's URL words; fts_anchors what other pages call it (rewritten, a short
	// row, whenever links to it change; every entry has one, empty or not, so that a word's
	// rarity in anchor text is measured against all entries). In one table, every new link to a page rewrote its
	// whole text, so the index could only be written once, after the crawl. Staged documents
	// folded before this step (their text not in FTS5 yet) are folded again.
	`CREATE VIRTUAL TABLE fts_own USING fts5(title, headings, body, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO fts_own (rowid, title, headings, body, urlwords, idents)
		SELECT rowid, title, headings, body, urlwords, idents FROM fts;
	CREATE VIRTUAL TABLE fts_anchors USING fts5(anchors, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO fts_anchors (rowid, anchors) SELECT rowid, anchors FROM fts;
	DROP TABLE fts;
	ALTER TABLE fts_own RENAME TO fts;
	INSERT INTO fts (fts, rank) VALUES ('automerge', 8);
	INSERT INTO fts (fts, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	INSERT INTO fts_anchors (fts_anchors, rank) VALUES ('automerge', 8);
	INSERT INTO fts_anchors (fts_anchors, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	UPDATE staged SET folded = 0 WHERE folded = 1;`,
	// 15: the index moves to a database file of its own (attach.go, issue 8): indexMigrations[14]
	// has copied its tables there, and this step drops them from the crawl database.
	`DROP TABLE main.links;
	DROP TABLE main.docs;
	DROP TABLE main.dirty;
	DROP TABLE main.waiting;
	DROP TABLE main.doc_headers;
	DROP TABLE main.fts;
	DROP TABLE main.fts_anchors;`,
	// 16: each entry's rows in fts and fts_anchors are under its number (docs.num, nums.go), not
	// its URL ID; indexMigrations[15] numbers the entries there. Nothing changes here.
	`SELECT 1;`,
}

// indexMigrations are run before the step of the same index in migrations, each in its own
// transaction that writes only the index database (attached as idx).
var indexMigrations = map[int]string{
	// Before step 15: the index moves to database files of its own (attach.go), each with its own
	// writer, so that the index is built beside the crawl's commits instead of between them
	// (issue 8): fts to the text database (txt), the rest to the index database (idx). In WAL
	// mode a transaction over several files is atomic in each, not across them, so the copy is a
	// transaction that writes only those two; step 15 then drops the tables from the crawl
	// database. A crash between the commits of the copy's two files, or after the copy, leaves
	// the crawl database's tables in place: the copy runs again. After a crash between the two the copy runs again, from
	// the crawl database's tables, and first drops what the earlier attempt made.
	14: `DROP TABLE IF EXISTS idx.links;
	DROP TABLE IF EXISTS idx.docs;
	DROP TABLE IF EXISTS idx.dirty;
	DROP TABLE IF EXISTS idx.waiting;
	DROP TABLE IF EXISTS idx.doc_headers;
	DROP TABLE IF EXISTS txt.fts;
	DROP TABLE IF EXISTS idx.fts_anchors;
	CREATE TABLE idx.docs (
		url_id INTEGER PRIMARY KEY,
		link_only INTEGER NOT NULL DEFAULT 0,
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		inlinks INTEGER NOT NULL DEFAULT 0,
		content_hash INTEGER NOT NULL DEFAULT 0
	);
	INSERT INTO idx.docs (url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash)
		SELECT url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash FROM main.docs;
	CREATE TABLE idx.links (
		from_id INTEGER NOT NULL,
		to_id INTEGER NOT NULL,
		anchor TEXT NOT NULL DEFAULT '',
		fragment INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (from_id, to_id, anchor)
	) WITHOUT ROWID;
	INSERT INTO idx.links (from_id, to_id, anchor, fragment) SELECT from_id, to_id, anchor, fragment FROM main.links;
	CREATE INDEX idx.links_to ON links (to_id);
	CREATE TABLE idx.dirty (url_id INTEGER PRIMARY KEY);
	INSERT INTO idx.dirty (url_id) SELECT url_id FROM main.dirty;
	CREATE TABLE idx.waiting (url_id INTEGER PRIMARY KEY);
	INSERT INTO idx.waiting (url_id) SELECT url_id FROM main.waiting;
	CREATE TABLE idx.doc_headers (url_id INTEGER PRIMARY KEY, header BLOB NOT NULL);
	INSERT INTO idx.doc_headers (url_id, header) SELECT url_id, header FROM main.doc_headers;
	CREATE VIRTUAL TABLE txt.fts USING fts5(title, headings, body, urlwords, idents, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO txt.fts (fts, rank) VALUES ('automerge', 8);
	INSERT INTO txt.fts (fts, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	INSERT INTO txt.fts (rowid, title, headings, body, urlwords, idents)
		SELECT rowid, title, headings, body, urlwords, idents FROM main.fts;
	CREATE VIRTUAL TABLE idx.fts_anchors USING fts5(anchors, tokenize = 'porter unicode61 remove_diacritics 2');
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('automerge', 8);
	INSERT INTO idx.fts_anchors (fts_anchors, rank) VALUES ('hashsize', ` + ftsHashSizeSQL + `);
	INSERT INTO idx.fts_anchors (rowid, anchors) SELECT rowid, anchors FROM main.fts_anchors;`,
	// Before step 16: docs gets num, each entry's rowid in fts and fts_anchors (nums.go). The
	// entries indexed so far keep their rows: their number is their URL ID. docs_num holds what a
	// search reads of each match (rank.go, first), so that a match costs one seek, as it did when
	// the rowid was the URL ID. A text row that no
	// entry has (left by an index transaction that did not commit, which the refresh used to
	// remove when it came to that URL) is removed now. Run again after a crash before step 16
	// commits, it rebuilds docs the same way.
	15: `DROP TABLE IF EXISTS idx.docs_numbered;
	CREATE TABLE idx.docs_numbered (
		url_id INTEGER PRIMARY KEY,
		link_only INTEGER NOT NULL DEFAULT 0,
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		inlinks INTEGER NOT NULL DEFAULT 0,
		content_hash INTEGER NOT NULL DEFAULT 0,
		num INTEGER NOT NULL
	);
	INSERT INTO idx.docs_numbered (url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash, num)
		SELECT url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash, url_id FROM idx.docs;
	DROP TABLE idx.docs;
	ALTER TABLE idx.docs_numbered RENAME TO docs;
	CREATE INDEX idx.docs_num ON docs (num, url_id, link_only, unavailable_after);
	DELETE FROM txt.fts WHERE rowid IN (SELECT id FROM txt.fts_docsize WHERE id NOT IN (SELECT num FROM idx.docs));`,
}

// ftsHashSize is the FTS5 'hashsize' of the search index (migration 11): the terms of this many
// bytes of indexed text are kept in the writer's memory before they are written as one segment.
const (
	ftsHashSize    = 16 << 20
	ftsHashSizeSQL = "16777216" // ftsHashSize, as the migration's SQL spells it
)

// oldIDsVersion is the last schema whose URL IDs were not store.IDOf: a store at or below it
// that holds URLs cannot be upgraded (see ErrOldIDs).
const oldIDsVersion = 4
