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

// The crawl is kept in two database files (issue 8; their tables: the package doc), each with its
// own writer connection, so that the index is built on the core the crawl's commits leave: the
// crawl database (the path given to Open), written by the crawl's commits (Store.inTx); and the
// index database (indexPath), written only by the indexer (Store.indexTxLocked), which reads the
// crawl database's staged documents and URLs and decides what every entry is, and writes the
// entries' own text and anchor text. (Until layout 7 the own text had a third file with a third
// writer beside the indexer's transactions: issue 26 part 5 keeps a split only if it earns 20% at
// 1,000,000 pages, and that one earned less: BENCHMARKS.md, issue 26.)
//
// Every connection sees the files it reads under their tables' own names: a connection to the
// crawl database attaches the index database (indexSchemaName), the indexer's connection (to the
// index database) attaches the crawl database read-only (crawlSchemaName). Each writer writes one
// file only, so neither ever waits for the other's lock.
const (
	indexSchemaName = "idx"
	crawlSchemaName = "crawl"
)

// Files returns the database files of the store at path: the crawl and index databases (each
// with its -wal and -shm files beside it while open). A copy of the store is a copy of both,
// taken together.
func Files(path string) []string { return []string{path, indexPath(path)} }

// indexPath is the index database of the crawl database at path (crawl.db has crawl.index.db).
func indexPath(path string) string { return strings.TrimSuffix(path, ".db") + ".index.db" }

// oldTextPath is the text database an earlier build (layout 6 and before) kept beside the crawl
// database at path: named only to say what to delete with a store this build refuses.
func oldTextPath(path string) string { return strings.TrimSuffix(path, ".db") + ".text.db" }

// indexCacheKiB is the page cache of the index writer's connection for the index database (the
// link graph, the entries' metadata, and the FTS5 tables, whose segments it writes in order and
// reads back only to merge them), crawlCacheKiB for the crawl database it reads (the staged
// documents, once each). The page caches draw on one pool, whose size is their sum: see
// crawlReaderIndexCacheKiB.
const (
	indexCacheKiB = 12 << 10
	crawlCacheKiB = 2 << 10
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

// indexTables are the tables of the index database.
var indexTables = []string{"folded", "link_log", "links", "dirty", "docs", "fts_anchors", "fts", "head"}

// ErrIndexMissing reports a crawl database whose index database is missing or incomplete.
var ErrIndexMissing = errors.New("the index database beside the crawl database is missing or incomplete")

// checkIndexFiles checks that the index database attached to db (that of the crawl database at
// path) holds its tables: a crawl database whose index file was removed cannot be searched or
// crawled on.
func checkIndexFiles(ctx context.Context, db rowQuerier, path string) error {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+indexSchemaName+`.sqlite_master
		WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))`, jsonStrings(indexTables)).Scan(&n)
	if err != nil {
		return fmt.Errorf("sqlite: open %s: %w", indexPath(path), err)
	}
	if n != len(indexTables) {
		return fmt.Errorf("sqlite: open %s: %d of its %d tables: %w (restore it from the same backup as the crawl database, or crawl into a new --data directory)",
			indexPath(path), n, len(indexTables), ErrIndexMissing)
	}
	return nil
}

// attachIndex is what a connection to the crawl database at path runs to see the index
// database: read-write (the writer, while it makes it; reader nil), or read-only with reader's
// page caches; immutable (see openReadOnly) if the file says so.
func attachIndex(path string, reader *readerCaches, immutable func(string) bool) []string {
	file := indexPath(path)
	setup := []string{attachSQL(file, indexSchemaName, reader != nil, immutable != nil && immutable(file))}
	if reader == nil {
		setup = append(setup, indexWriterSetup(indexSchemaName)...)
	} else {
		setup = append(setup, cacheSizePragma(indexSchemaName, reader.index))
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
