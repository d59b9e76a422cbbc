// Package pgschema measures and drops the PostgreSQL schema a benchmark's crawl or index left,
// for the benchmarks' reports (rows and bytes per URL). It holds no state.
package pgschema

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Size is what a schema holds.
type Size struct {
	Rows  map[string]int64 // per table
	Bytes int64            // tables, their indexes and TOAST
}

// Measure vacuums every table of schema (so that the sizes are those of the data, not of dead
// rows) and returns its rows and bytes. url names the database.
func Measure(ctx context.Context, url, schema string) (Size, error) {
	sz := Size{Rows: map[string]int64{}}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return sz, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1`, schema)
	if err != nil {
		return sz, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return sz, err
	}
	for _, t := range tables {
		name := pgx.Identifier{schema, t}.Sanitize()
		if _, err := conn.Exec(ctx, "VACUUM "+name); err != nil {
			return sz, err
		}
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+name).Scan(&n); err != nil {
			return sz, err
		}
		sz.Rows[t] = n
	}
	err = conn.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`, schema).Scan(&sz.Bytes)
	return sz, err
}

// Drop removes schema and everything in it.
func Drop(ctx context.Context, url, schema string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}
