package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/fractle/mandelbot/internal/store"
)

const (
	// DefaultBusyTimeoutMillis is how long a statement waits for a lock held by a checkpoint.
	DefaultBusyTimeoutMillis = 10_000
	// DefaultReaders bounds concurrent read connections (WAL readers do not block the writer).
	DefaultReaders = 4
	// DefaultCheckpointPages is the WAL size, in 4 KiB pages (checkpointPageBytes), at which a
	// commit copies the WAL back into the database (SQLite's wal_autocheckpoint): 32 MiB. SQLite's
	// default of 1,000 made a commit of a crawled page checkpoint every ~80 commits, rewriting the
	// same index pages again and again; at 8,000 each page is written back once per ~650 commits.
	DefaultCheckpointPages = 8_000
	// writerCacheKiB is the crawl writer's page cache. SQLite's 2 MiB made the crawl's inserts
	// (URL IDs are hashes, so they land all over the index) miss the cache on most pages: a
	// fifth of a crawl's CPU was read system calls (issue 8). It was 32 MiB while the same
	// connection also wrote the search index; since the index has its own files and writers
	// (attach.go) it writes urls, origins and staged only, and 8 MiB crawled 20,000 pages as fast
	// as 32 with 35 MiB less RSS (BENCHMARKS.md, "Issue 8, 2026-11-25, fifth part").
	writerCacheKiB = 8 << 10
	// writerSpillKiB is how much more the crawl writer may hold of a commit's changed pages
	// before it writes them to the WAL in the middle of the commit (SQLite's cache_spill; the
	// cache grows past its cache_size only while every page in it is changed). A commit of a
	// crawl of 1,000 origins changes a page or more per fetch, in urls, urls_origin, staged and
	// the indexes of IDs, and a group commit takes up to 512 fetches: 8 MiB spilled, and each
	// page written again in the same commit had its WAL frames re-read for their checksums
	// (walRewriteChecksums): 36 µs of CPU per page fetched at 1,000 × 200, none at 100 × 200
	// (issue 26, what grows with the crawl).
	writerSpillKiB = 16 << 10
	// readerIndexCacheKiB is each read connection's page cache for the index database (attach.go).
	// A search of a word in most of the index walks its match list (FTS5 doclist pages) two or
	// three times, and looks up each candidate's row sizes and metadata; with SQLite's 2 MiB,
	// every walk read the pages again (issue 11 item 5: a tenth of a frequent word's search was
	// read system calls). At most DefaultReaders (or Options.Readers) connections of a
	// read-only store (search, serve, export) hold this much each: 32 MiB for the pages' own
	// text and 16 for the rest, as they were while the own text had a file of its own.
	readerIndexCacheKiB = 48 << 10
	// readerCrawlCacheKiB is any read connection's page cache for the crawl database (the URLs
	// of results; the crawl's frontier).
	readerCrawlCacheKiB = 4 << 10
	// crawlReaderIndexCacheKiB is the index database's cache of the read connections of the
	// store a crawl writes: its frontier reads the crawl database only, and a search during the
	// crawl (crawl --serve) is slower rather than every crawl larger. SQLite's page caches draw
	// on one pool (the sum of their sizes): with 32 MiB for a crawl's reader, the index's
	// writers held 35 MiB more during a crawl of 20,000 pages, whatever their own cache_size
	// (issue 8).
	crawlReaderIndexCacheKiB = 4 << 10
)

// readerCaches are a read connection's page caches for the index database, in KiB, and for the
// crawl database when crawl is positive (else the connection's dsn sets it).
type readerCaches struct{ index, crawl int }

var searchReaders = readerCaches{index: readerIndexCacheKiB}

// Options tune Open. The zero value uses the defaults.
type Options struct {
	Readers int
	// CheckpointPages is the WAL size that triggers a checkpoint; 0 means DefaultCheckpointPages.
	CheckpointPages int
	// KnownOrigins bounds how many origin keys Commit remembers as present, to skip their insert;
	// 0 means store.DefaultKnownOrigins.
	KnownOrigins int
	// ReadOnly opens an existing database for reading only, without the process lock, so that
	// `serve`, `search` and `export` can read a crawl while `crawl` writes it (WAL readers do not
	// block the writer). Every write method then fails.
	ReadOnly bool
	// PageCacheBytes bounds the page caches of a writable store's connections together (issue
	// 29: the page caches' share of a crawl's --memory): each connection's cache_size is its
	// part, the defaults scaled down alike when their sum (54 MiB with 4 readers) does not fit,
	// none under MinPageCacheKiB. 0 means the defaults. A read-only store keeps its own
	// (search) caches.
	PageCacheBytes int64
	// MergeRows, if positive, stands for mergeLinksRows as the least link_log IndexPending merges
	// (with the anchor text it makes due, issue 26 part 2). Tests set it low, to see merges that
	// a crawl makes every 20,000 pages or so; a merge's passes stay mergeLinksRows rows (see
	// passRows), so that a small merge is one pass.
	MergeRows int
	// MergeAll makes IndexPending merge every link change waiting at every call, whatever
	// MergeRows and links' size say: the merges a crawl makes once link_log holds as many rows
	// as links (mergeLogShare), made while a store holds a few links. For the storetest suite,
	// whose anchor checks see each call's merges; a crawl with it would rewrite links at every
	// call.
	MergeAll bool
	// passRows, if positive, stands for mergeLinksRows as the most log rows a pass of a merge
	// holds: for the tests of the passes themselves.
	passRows int
	// wrapConn, if set, wraps every connection the store opens, after its setup: for the tests
	// that see each statement the store runs (observing, observe_test.go).
	wrapConn connWrap
}

// Store is the SQLite implementation of store.Store. It is safe for concurrent use; writes go
// through one connection, reads through a small pool.
type Store struct {
	path  string
	write *sql.DB // exactly one connection (SQLite has one writer), pinned as wconn
	read  *sql.DB
	lock  *os.File
	// wconn is write's connection, held for the Store's life: every write transaction runs on it
	// (inTx), and stmts are prepared on it.
	wconn *sql.Conn
	stmts *statements
	// writeMu serializes write transactions and guards stmts and wcache.
	writeMu sync.Mutex
	wcache  stmtCache
	// iwrite is the index database's one writer connection (attach.go), pinned as iconn: the
	// indexer's transactions run on it (indexTxLocked), under indexMu, with icache.
	iwrite  *sql.DB
	iconn   *sql.Conn
	indexMu sync.Mutex
	icache  stmtCache
	// origins are the origin keys known to be in the file (Commit skips their insert).
	origins *store.OriginSet
	// readOnly: opened with Options.ReadOnly; write is nil and writes fail.
	readOnly bool
	// mergeRows is mergeLinksRows, or Options.MergeRows; passRows mergeLinksRows, or
	// Options.passRows.
	mergeRows, passRows int64
	// mergeAll is Options.MergeAll.
	mergeAll bool
	// linkRows is links' rows as counted once (mergeLeast), and kept by the merges since (a
	// replaced link counted as added); -1 until counted. Guarded by indexMu.
	linkRows int64
}

var _ store.Store = (*Store)(nil)

// Open opens (creating it if needed) the crawl database at path. A store of another schema
// (schema.go: an earlier build's, a newer one's, or not Mandelbot's) is refused before anything
// is written, with an error wrapping ErrEarlierBuild, ErrNewerSchema or ErrNotAStore.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.ReadOnly {
		return openReadOnly(ctx, path, opts)
	}
	if _, err := checkFile(ctx, path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("sqlite: open %s: %w", path, store.ErrLocked)
		}
		return nil, fmt.Errorf("sqlite: lock %s: %w", path, err)
	}
	s := &Store{path: path, lock: lock}
	if err := s.open(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// dsn is the driver's name for the database at path: a read-only connection, or the writer's
// (whose checkpoint threshold and page cache tuneWriter sets, for the database's page size).
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(DefaultBusyTimeoutMillis)+")")
	q.Add("_pragma", "foreign_keys(ON)")
	if readOnly {
		// mode=ro: never ask for write access, so a user who may only read the file and its
		// directory can (issue 10). The writer set WAL mode; a reader must not (it is a write).
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(ON)")
		q.Add("_pragma", "cache_size(-"+strconv.Itoa(readerCrawlCacheKiB)+")")
	} else {
		// page_size takes effect only before the database's first write (pagesize.go), and
		// setting WAL mode is one: the driver runs _journal_mode after every _pragma (which it
		// sorts by name), so WAL is set there rather than as a _pragma. The index database is
		// made by the crawl writer's ATTACH, with pageSize (indexWriterSetup).
		q.Add("_pragma", "page_size("+strconv.Itoa(crawlPageSize)+")")
		// Like page_size, before the first table: the free pages of staged text can be given
		// back (reclaim.go). On an existing database it changes nothing.
		q.Add("_pragma", "auto_vacuum(INCREMENTAL)")
		q.Set("_journal_mode", "WAL")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "cache_size(-"+strconv.Itoa(writerCacheKiB)+")") // for createSchema; tuneWriter sets it
		// Statement journals (a multi-row statement that may fail halfway opens one) in memory:
		// in a temporary file each cost a write system call per page it saved (issue 8).
		q.Add("_pragma", "temp_store(MEMORY)")
	}
	return "file:" + path + "?" + q.Encode()
}

func (s *Store) open(ctx context.Context, opts Options) error {
	var err error
	checkpoint := opts.CheckpointPages
	if checkpoint <= 0 {
		checkpoint = DefaultCheckpointPages
	}
	ipath := indexPath(s.path)
	if s.write, err = openAttached(dsn(s.path, false), opts.wrapConn); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	s.write.SetMaxOpenConns(1)
	if s.wconn, err = s.write.Conn(ctx); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	if err := s.prepareSchema(ctx); err != nil {
		return err
	}
	readers := opts.Readers
	if readers <= 0 {
		readers = DefaultReaders
	}
	caches := pageCachesFor(opts.PageCacheBytes, readers)
	if s.read, err = openAttached(dsn(s.path, true), opts.wrapConn, attachIndex(s.path, &caches.reader, nil)...); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	s.read.SetMaxOpenConns(readers)
	if err := tuneWriter(ctx, s.wconn, s.path, checkpoint, caches.writer); err != nil {
		return err
	}
	if _, err := s.wconn.ExecContext(ctx, spillPragma(caches.writer+caches.writerSpill, crawlPageSize)); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	if s.iwrite, s.iconn, err = openWriter(ctx, ipath, opts.wrapConn, checkpoint, caches.index,
		attachSQL(s.path, crawlSchemaName, true, false), cacheSizePragma(crawlSchemaName, caches.indexCrawl)); err != nil {
		return err
	}
	if s.stmts, err = prepare(ctx, s.wconn); err != nil {
		return err
	}
	known := opts.KnownOrigins
	if known <= 0 {
		known = store.DefaultKnownOrigins
	}
	s.origins = store.NewOriginSet(known)
	s.mergeRows, s.passRows, s.linkRows = mergeLinksRows, mergeLinksRows, -1
	if opts.passRows > 0 {
		s.passRows = int64(opts.passRows)
	}
	s.mergeAll = opts.MergeAll
	if opts.MergeRows > 0 {
		s.mergeRows = int64(opts.MergeRows)
	}
	return nil
}

// openWriter opens the one writer connection of the database at path (running setup on it),
// pinned, with its checkpoint threshold and page cache of cacheKiB (tuneWriter). The caller
// closes both, also when err is not nil.
func openWriter(ctx context.Context, path string, wrap connWrap, checkpoint, cacheKiB int, setup ...string) (*sql.DB, *sql.Conn, error) {
	db, err := openAttached(dsn(path, false), wrap, setup...)
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return db, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return db, conn, tuneWriter(ctx, conn, path, checkpoint, cacheKiB)
}

// prepareSchema checks the schema of the crawl database (on wconn, before anything is written),
// creates it if the database is new, and checks that the index database holds its tables. The
// crawl's writer sees it only here (attached read-write, so that createSchema makes it): BEGIN
// IMMEDIATE takes the write lock of every database attached, and the index database's is the
// indexer's.
func (s *Store) prepareSchema(ctx context.Context) error {
	state, err := readSchema(ctx, s.wconn, s.path)
	if err != nil {
		return err
	}
	for _, q := range attachIndex(s.path, nil, nil) {
		if _, err := s.wconn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: open %s: %w", s.path, err)
		}
	}
	if state == schemaEmpty {
		if err := createSchema(ctx, s.wconn); err != nil {
			return err
		}
	}
	if err := checkIndexFiles(ctx, s.wconn, s.path); err != nil {
		return err
	}
	if _, err := s.wconn.ExecContext(ctx, `DETACH DATABASE `+indexSchemaName); err != nil {
		return fmt.Errorf("sqlite: open %s: %w", s.path, err)
	}
	return nil
}

// Close closes the database and releases the process lock. It is safe to call more than once.
func (s *Store) Close() error {
	var errs []error
	if s.stmts != nil {
		s.stmts.close()
		s.stmts = nil
	}
	s.wcache.close()
	s.icache.close()
	for _, c := range []*sql.Conn{s.wconn, s.iconn} {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	s.wconn, s.iconn = nil, nil
	if s.read != nil {
		errs = append(errs, s.read.Close())
	}
	// The last connection to a database in WAL mode copies the WAL back into the file and
	// removes it as it closes, if it may write. The crawl's writer closes after the index
	// writer, which attaches the crawl database read-only and so cannot copy its WAL back:
	// closing last, the writer does, and removes the WAL, which would stay at its largest size
	// else (issue 26: 247 MB of a 567 MB data directory at 1,000 × 50 pages;
	// TestCloseLeavesNoWAL).
	for _, db := range []*sql.DB{s.iwrite, s.write} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	s.read, s.write, s.iwrite = nil, nil, nil
	if s.lock != nil {
		errs = append(errs, s.lock.Close()) // closing the descriptor releases the flock
		s.lock = nil
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close %s: %w", s.path, err)
	}
	return nil
}

// ErrReadOnly reports a write to a store opened with Options.ReadOnly.
var ErrReadOnly = errors.New("store opened read-only")

func openReadOnly(ctx context.Context, path string, opts Options) (*Store, error) {
	state, err := checkFile(ctx, path)
	if err != nil {
		return nil, err
	}
	if state == schemaEmpty {
		return nil, fmt.Errorf("sqlite: open %s: %w (an empty database: no crawl was made in it)", path, ErrNotAStore)
	}
	s := &Store{path: path, readOnly: true}
	name := dsn(path, true)
	if noWAL(path) {
		// No writer has the database open (a writer keeps the -shm file) and this user may not
		// create the -shm file a WAL reader needs: read the file as it is, without locking
		// (issue 10: a user who may only read the crawl can search it). A crawl that starts
		// later is not seen until the store is opened again.
		name += "&immutable=1"
	}
	if s.read, err = openAttached(name, opts.wrapConn, attachIndex(path, &searchReaders, noWAL)...); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s.read.SetMaxOpenConns(max(opts.Readers, DefaultReaders))
	if err := checkIndexFiles(ctx, s.read, path); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// checkFile reads which store the crawl database at path is (readSchema) without writing
// anything, before Open takes its lock or opens a writer: a store this build refuses is left
// byte for byte as it was, without a lock, -wal or -shm file. The file is read as immutable
// (without the -shm file a WAL reader makes) unless its -wal file holds something: then a
// writer has it open, or crashed, and its last commits are there. An error wraps
// os.ErrNotExist when there is no file.
func checkFile(ctx context.Context, path string) (schemaState, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	name := "file:" + path + "?mode=ro&_pragma=query_only(ON)"
	if wal, err := os.Stat(path + "-wal"); err != nil || wal.Size() == 0 {
		name += "&immutable=1"
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return 0, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	defer db.Close()
	return readSchema(ctx, db, path)
}

// noWAL reports whether no writer has the database at path open (a writer keeps the -shm file)
// and this user may not create the -shm file a WAL reader needs.
func noWAL(path string) bool {
	_, err := os.Stat(path + "-shm")
	return errors.Is(err, os.ErrNotExist) && syscall.Access(filepath.Dir(path), accessWrite) != nil
}

// accessWrite is access(2)'s W_OK: may this process create files in a directory.
const accessWrite = 2
