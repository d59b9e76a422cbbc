package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	msqlite "modernc.org/sqlite"
)

// The crawl is kept in three database files (issue 8; their tables: the package doc), each with
// its own writer connection, so that the index is built on the cores the crawl's commits leave:
// the crawl database (the path given to Open), written by the crawl's commits (Store.inTx); the
// index database (indexPath), written only by the indexer (Store.indexTxLocked), which reads the
// crawl database's staged documents and URLs and decides what every entry is; and the text
// database (textPath), the entries' own text, the larger half of the indexer's work, written by
// a third connection (Store.textStep) beside each indexer transaction, with the rows that
// transaction decided.
//
// Every connection sees the files it reads under their tables' own names: a connection to the
// crawl database attaches the index and text databases (indexSchemaName, textSchemaName), the
// indexer's connection (to the index database) attaches the crawl database read-only
// (crawlSchemaName). Each writer writes one file only, so none ever waits for another's lock.
const (
	indexSchemaName = "idx"
	textSchemaName  = "txt"
	crawlSchemaName = "crawl"
)

// Files returns the database files of the store at path: the crawl, index and text databases
// (each with its -wal and -shm files beside it while open). A copy of the store is a copy of
// all three, taken together.
func Files(path string) []string { return []string{path, indexPath(path), textPath(path)} }

// indexPath is the index database of the crawl database at path (crawl.db has crawl.index.db),
// and textPath its text database (crawl.text.db).
func indexPath(path string) string { return strings.TrimSuffix(path, ".db") + ".index.db" }
func textPath(path string) string  { return strings.TrimSuffix(path, ".db") + ".text.db" }

// indexCacheKiB is the page cache of the index writer's connection for the index database (the
// link graph and the entries' metadata, written at random: URL IDs are hashes), crawlCacheKiB
// for the crawl database it reads (the staged documents, once each), and textCacheKiB the text
// writer's, which writes FTS5 segments in order and reads them back only to merge them. The
// page caches draw on one pool, whose size is their sum: see crawlReaderTextCacheKiB.
const (
	indexCacheKiB = 8 << 10
	crawlCacheKiB = 2 << 10
	textCacheKiB  = 4 << 10
)

// connWrap wraps a connection the store opens (Options.wrapConn).
type connWrap func(driver.Conn) (driver.Conn, error)

// attaching is a driver.Connector that runs statements (ATTACH and PRAGMAs) on every connection
// it opens, before database/sql hands the connection out; then wraps the connection with wrap,
// if set (Options.wrapConn).
type attaching struct {
	driver.Connector
	setup []string
	wrap  connWrap
}

// Connect implements driver.Connector.
func (a attaching) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := a.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ex, ok := c.(driver.ExecerContext)
	if !ok {
		c.Close()
		return nil, errors.New("sqlite: the driver's connection cannot execute statements")
	}
	for _, q := range a.setup {
		if _, err := ex.ExecContext(ctx, q, nil); err != nil {
			c.Close()
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	if a.wrap != nil {
		return a.wrap(c)
	}
	return c, nil
}

// openAttached opens a pool of connections to the database name (a dsn) that run setup first,
// each wrapped with wrap if it is not nil.
func openAttached(name string, wrap connWrap, setup ...string) (*sql.DB, error) {
	c, err := msqlite.NewConnector(name)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(attaching{Connector: c, setup: setup, wrap: wrap}), nil
}

// attachSQL attaches the database at path as schema: read-write (creating it) or read-only;
// immutable for a reader that may not create the -shm file (see openReadOnly).
func attachSQL(path, schema string, readOnly, immutable bool) string {
	q := url.Values{}
	if readOnly {
		q.Set("mode", "ro")
	}
	if immutable {
		q.Set("immutable", "1")
	}
	name := "file:" + path
	if len(q) > 0 {
		name += "?" + q.Encode()
	}
	return `ATTACH DATABASE '` + strings.ReplaceAll(name, "'", "''") + `' AS ` + schema
}

// indexWriterSetup is what a writer of the index database (attached as schema, or its main
// database) runs: the page size of a new file, WAL, and the writer's synchronous setting.
func indexWriterSetup(schema string) []string {
	return []string{
		`PRAGMA ` + schema + `.page_size = ` + strconv.Itoa(pageSize),
		`PRAGMA ` + schema + `.journal_mode = WAL`,
		`PRAGMA ` + schema + `.synchronous = NORMAL`,
	}
}

// indexTables and textTables are the tables of the index and text databases.
var (
	indexTables = []string{"folded", "link_log", "links", "dirty", "docs", "fts_anchors"}
	textTables  = []string{"fts", "head"}
)

// ErrIndexMissing reports a crawl database whose index or text database is missing or
// incomplete.
var ErrIndexMissing = errors.New("a database of the index beside the crawl database is missing or incomplete")

// checkIndexFiles checks that the index and text databases attached to db (those of the crawl
// database at path) hold their tables: a crawl database whose index file was removed cannot be
// searched or crawled on.
func checkIndexFiles(ctx context.Context, db rowQuerier, path string) error {
	for _, f := range []struct {
		schema, path string
		tables       []string
	}{{indexSchemaName, indexPath(path), indexTables}, {textSchemaName, textPath(path), textTables}} {
		var n int
		err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+f.schema+`.sqlite_master
			WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))`, jsonStrings(f.tables)).Scan(&n)
		if err != nil {
			return fmt.Errorf("sqlite: open %s: %w", f.path, err)
		}
		if n != len(f.tables) {
			return fmt.Errorf("sqlite: open %s: %d of its %d tables: %w (restore it from the same backup as the crawl database, or crawl into a new --data directory)",
				f.path, n, len(f.tables), ErrIndexMissing)
		}
	}
	return nil
}

// attachIndex is what a connection to the crawl database at path runs to see the index and text
// databases: read-write (the writer, while it makes them; reader nil), or read-only with reader's
// page caches; immutable (see openReadOnly) for each file that says so.
func attachIndex(path string, reader *readerCaches, immutable func(string) bool) []string {
	var setup []string
	for _, schema := range []string{indexSchemaName, textSchemaName} {
		file := indexPath(path)
		if schema == textSchemaName {
			file = textPath(path)
		}
		setup = append(setup, attachSQL(file, schema, reader != nil, immutable != nil && immutable(file)))
		switch {
		case reader == nil:
			setup = append(setup, indexWriterSetup(schema)...)
		case schema == indexSchemaName:
			setup = append(setup, cacheSizePragma(schema, reader.index))
		default:
			setup = append(setup, cacheSizePragma(schema, reader.text))
		}
	}
	if reader != nil && reader.crawl > 0 {
		setup = append(setup, cacheSizePragma("main", reader.crawl))
	}
	return setup
}

// jsonStrings renders names (plain identifiers) as a JSON array.
func jsonStrings(names []string) string {
	return `["` + strings.Join(names, `","`) + `"]`
}
