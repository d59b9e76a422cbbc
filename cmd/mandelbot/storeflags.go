package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// defaultDataDir is where a crawl lives unless --data or --store says otherwise.
const defaultDataDir = "./mandelbot-data"

// storeFlags are the flags every command that reads or writes a crawl takes, the same way.
type storeFlags struct {
	data  string
	store string
	// pageCacheBytes bounds a SQLite store's page caches when the command writes it (crawl: the
	// page caches' share of --memory); 0: the store's defaults.
	pageCacheBytes int64
}

func (f *storeFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.data, "data", defaultDataDir, "directory of the crawl (its store, and WARC files)")
	cmd.Flags().StringVar(&f.store, "store", "", "store URL: sqlite:PATH (default: sqlite:DATA/crawl.db), or postgres://[USER@HOST/DB][?schema=NAME] shared by several crawl processes (PG* variables fill in what the URL leaves out)")
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error { return f.check(cmd) }
}

// check refuses --data together with --store: one of them would be ignored (issue 10).
func (f *storeFlags) check(cmd *cobra.Command) error {
	if cmd.Flags().Changed("data") && cmd.Flags().Changed("store") {
		return usageErrorf("give --data or --store, not both (--store names the database itself)")
	}
	return nil
}

// location returns the store URL the flags name.
func (f *storeFlags) location() string {
	if f.store != "" {
		return f.store
	}
	return "sqlite:" + filepath.Join(f.data, "crawl.db")
}

// storeArgs is how another command is told where this crawl is, in the user's own terms:
// --data DIR unless --store was given (issue 27: not the sqlite: URL of --data's file).
func (f *storeFlags) storeArgs() string {
	if f.store != "" {
		return "--store " + shellQuote(redact(f.store))
	}
	return "--data " + shellQuote(f.data)
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain path characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exists reports whether the store the flags name exists already (a networked store always
// does).
func (f *storeFlags) exists() bool {
	loc := f.location()
	if path, ok := strings.CutPrefix(loc, "sqlite:"); ok {
		return fileExists(path)
	}
	return true
}

// open opens the store; create says whether the command writes (crawl: a missing SQLite file
// is created) or only reads (export, search, serve: a missing file is an error, and the store is
// opened read-only, beside a crawl that may be running).
func (f *storeFlags) open(ctx context.Context, create bool) (store.Store, error) {
	loc := f.location()
	switch {
	case strings.HasPrefix(loc, "sqlite:"):
		path := strings.TrimPrefix(loc, "sqlite:")
		if path == "" {
			return nil, usageErrorf("--store sqlite: needs a path")
		}
		if !create && !fileExists(path) {
			return nil, usageErrorf("no crawl at %s (run `mandelbot crawl` first, or pass --data/--store)", path)
		}
		// Readers do not take the crawl's lock, so they work while a crawl runs.
		s, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: !create, PageCacheBytes: f.pageCacheBytes})
		if errors.Is(err, store.ErrLocked) {
			return nil, fmt.Errorf("%w: another mandelbot command is using %s", err, path)
		}
		return s, err
	case strings.HasPrefix(loc, "postgres://"), strings.HasPrefix(loc, "postgresql://"):
		conn, schema, err := postgresLocation(loc)
		if err != nil {
			return nil, err
		}
		s, err := postgres.Open(ctx, conn, postgres.Options{Schema: schema, MustExist: !create})
		if errors.Is(err, postgres.ErrNoCrawl) {
			return nil, usageErrorf("no crawl at %s (run `mandelbot crawl --store` with it first)", redact(loc))
		}
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", redact(loc), err)
		}
		return s, nil
	}
	return nil, usageErrorf("--store %q: want sqlite:PATH or postgres://...", redact(loc))
}

// postgresLocation splits a --store postgres:// URL into what pgx connects with and the schema
// of the crawl, named by the URL's schema parameter (default postgres.DefaultSchema), which
// PostgreSQL itself does not know. Whatever the URL leaves out (host, user, database, password)
// pgx takes from the standard PG* environment variables, as libpq does: `--store postgres://`
// alone uses them all.
func postgresLocation(loc string) (conn, schema string, err error) {
	u, err := url.Parse(loc)
	if err != nil {
		return "", "", usageErrorf("--store %s: %v", redact(loc), err)
	}
	q := u.Query()
	if !q.Has("schema") {
		return loc, "", nil
	}
	schema = q.Get("schema")
	q.Del("schema")
	u.RawQuery = q.Encode()
	conn = u.String()
	if !strings.Contains(conn, "://") { // net/url drops the // of an empty host; pgx needs it
		conn = strings.Replace(conn, ":", "://", 1)
	}
	return conn, schema, nil
}

// redact hides a password in a store URL before it is printed.
func redact(loc string) string {
	if i := strings.Index(loc, "://"); i >= 0 {
		if at := strings.LastIndexByte(loc, '@'); at > i {
			if colon := strings.IndexByte(loc[i+3:at], ':'); colon >= 0 {
				return loc[:i+3+colon+1] + "***" + loc[at:]
			}
		}
	}
	return loc
}
