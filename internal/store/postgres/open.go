package postgres

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/fractle/mandelbot/internal/store"
)

const (
	// DefaultSchema is the schema a crawl lives in unless Options.Schema says otherwise.
	DefaultSchema = "mandelbot"
	// DefaultMaxConns bounds the connections of one process's pool.
	DefaultMaxConns = 8
)

// Options tune Open. The zero value uses the defaults.
type Options struct {
	// Schema is the PostgreSQL schema holding the crawl, created if missing: several crawls can
	// share a database, one schema each. Empty means DefaultSchema.
	Schema string
	// MaxConns bounds the pool; 0 means DefaultMaxConns.
	MaxConns int
	// KnownOrigins bounds the origin keys Commit remembers; 0 means store.DefaultKnownOrigins.
	KnownOrigins int
	// MustExist makes Open fail with ErrNoCrawl when the schema holds no crawl, instead of
	// creating it: for commands that only read a crawl (export, search, serve).
	MustExist bool
}

// Store is the PostgreSQL implementation of store.Store and store.Shared. It is safe for
// concurrent use by the goroutines of one process, and several processes (on several machines)
// may use one schema at once.
type Store struct {
	pool    *pgxpool.Pool
	schema  string
	origins *store.OriginSet
	stems   stemCache // the stems of words this process indexed (tsvec.go)
	upkeep  upkeep    // documents folded since the last look at the tables' statistics (stats.go)
}

var (
	_ store.Store  = (*Store)(nil)
	_ store.Shared = (*Store)(nil)
)

// schemaName is what Options.Schema may be: a plain lower-case identifier, so it never needs
// quoting and never surprises a person typing it into psql.
var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// ErrBadSchema reports an Options.Schema that is not a plain lower-case identifier.
var ErrBadSchema = errors.New("schema name must be lower-case letters, digits and _, not starting with a digit, at most 63 bytes")

// Open connects to the database that connString names (a postgres:// URL or key=value
// string, as pgx parses it: pgx also reads the standard PG* environment variables for what the
// string leaves out), and creates the crawl's schema if it has none. A schema made by another
// build is refused before anything is written (ErrEarlierBuild, ErrNewerSchema, ErrNotAStore).
func Open(ctx context.Context, connString string, opts Options) (*Store, error) {
	schema := opts.Schema
	if schema == "" {
		schema = DefaultSchema
	}
	if !schemaName.MatchString(schema) {
		return nil, fmt.Errorf("postgres: schema %q: %w", schema, ErrBadSchema)
	}
	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.ConnConfig.RuntimeParams["jit"] = sessionJIT
	cfg.AfterConnect = afterConnect
	cfg.MaxConns = int32(DefaultMaxConns)
	if opts.MaxConns > 0 {
		cfg.MaxConns = int32(opts.MaxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	known := opts.KnownOrigins
	if known <= 0 {
		known = store.DefaultKnownOrigins
	}
	s := &Store{pool: pool, schema: schema, origins: store.NewOriginSet(known)}
	if err := s.prepareSchema(ctx, opts.MustExist); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// sessionJIT is the jit setting of the store's connections, sent when each connects: off. The
// crawl's statements are many short ones on IDs, and the planner compiled those it costed above
// jit_above_cost (an anchor generation's inlink counts of 5,000 targets: about 113,000 at
// 200,000 pages; issue 31 part 4, server CPU per page) to machine code at every run, which took
// longer than running them.
const sessionJIT = "off"

// preferLZ4 makes the connection compress the values it moves out of line (documents' text,
// their tsvectors) with lz4 where the server has it, rather than pglz: compressing was the
// largest single cost of the server's fold (issue 31 part 4: server CPU per page), and lz4 also
// reads back faster. Values already stored keep their compression; every server reads both.
func preferLZ4(ctx context.Context, conn *pgx.Conn) error {
	if _, err := conn.Exec(ctx, sqlPreferLZ4); err != nil {
		return fmt.Errorf("postgres: toast compression: %w", err)
	}
	return nil
}

// sqlPreferLZ4 sets default_toast_compression to lz4 for the session when the server offers it.
const sqlPreferLZ4 = `SELECT set_config('default_toast_compression', 'lz4', false)
	FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`

// ErrNoCrawl reports a schema that holds no crawl, opened with Options.MustExist.
var ErrNoCrawl = errors.New("no crawl in this schema")

// Schema is the schema the store uses.
func (s *Store) Schema() string { return s.schema }

// Close closes the pool. It is safe to call more than once.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}
