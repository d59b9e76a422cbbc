package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fractle/mandelbot/bench/internal/pgschema"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// openMeasured opens the store to measure: SQLite at path, or with cfg.pg the PostgreSQL store in a
// schema of its own, dropped when the store is closed. size reports the store's files (the
// PostgreSQL schema as one, "pg": tables, indexes and TOAST).
func openMeasured(ctx context.Context, cfg config, path string) (st store.Store, size func() ([]dbFile, error), err error) {
	if cfg.pg == "" {
		st, err = sqlite.Open(ctx, path, sqlite.Options{})
		return st, func() ([]dbFile, error) { return dbFiles(path) }, err
	}
	schema := fmt.Sprintf("indexbench_%d", os.Getpid())
	pg, err := postgres.Open(ctx, cfg.pg, postgres.Options{Schema: schema})
	if err != nil {
		return nil, nil, err
	}
	size = func() ([]dbFile, error) {
		sz, err := pgschema.Measure(ctx, cfg.pg, schema)
		return []dbFile{{Name: "pg", Size: sz.Bytes}}, err
	}
	return dropOnClose{Store: pg, drop: func() error { return pgschema.Drop(context.WithoutCancel(ctx), cfg.pg, schema) }}, size, nil
}

// dropOnClose drops the benchmark's schema when the store is closed.
type dropOnClose struct {
	store.Store
	drop func() error
}

func (d dropOnClose) Close() error {
	err := d.Store.Close()
	if derr := d.drop(); err == nil {
		err = derr
	}
	return err
}
