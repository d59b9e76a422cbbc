package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// defaultDataDir is where a crawl lives unless --data or --store says otherwise.
const defaultDataDir = "./mandelbot-data"

// storeFlags are the flags every command that reads or writes a crawl takes, the same way.
type storeFlags struct {
	data  string
	store string
}

func (f *storeFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.data, "data", defaultDataDir, "directory of the crawl (its store, and WARC files)")
	cmd.Flags().StringVar(&f.store, "store", "", "store URL: sqlite:PATH (default: sqlite:DATA/crawl.db) or postgres://...")
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
		s, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: !create})
		if errors.Is(err, store.ErrLocked) {
			return nil, fmt.Errorf("%w: another mandelbot command is using %s", err, path)
		}
		return s, err
	case strings.HasPrefix(loc, "postgres://"), strings.HasPrefix(loc, "postgresql://"):
		return nil, usageErrorf("--store %s: the PostgreSQL store is not implemented yet; use sqlite:PATH", redact(loc))
	}
	return nil, usageErrorf("--store %q: want sqlite:PATH or postgres://...", redact(loc))
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
