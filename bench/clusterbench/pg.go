package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTicks = 100

// serverCPU sums the CPU time of the PostgreSQL server: for every process named "postgres" (the
// postmaster and its backends, as /proc shows them), its user+system time and that of its reaped
// children, so that a backend which exits between two readings (the crawl's connections close
// when it ends) still counts, in the postmaster's. False where /proc is not readable. Other
// users of the same server count too.
func serverCPU() (time.Duration, bool) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return 0, false
	}
	var ticks int64
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		t, ok := postgresTicks(string(b))
		if ok {
			ticks += t
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, true
}

// postgresTicks parses one /proc/PID/stat line: utime+stime+cutime+cstime when the command is
// postgres.
func postgresTicks(stat string) (int64, bool) {
	open, closing := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if open < 0 || closing < open || stat[open+1:closing] != "postgres" {
		return 0, false
	}
	f := strings.Fields(stat[closing+1:])
	if len(f) < 15 { // state is field 3; utime, stime, cutime and cstime are fields 14 to 17
		return 0, false
	}
	var sum int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

// schemaSize is what a crawl left in a PostgreSQL schema.
type schemaSize struct {
	rows  map[string]int64 // per table
	bytes int64            // tables, indexes and TOAST
}

func measureSchema(ctx context.Context, url, schema string) (schemaSize, error) {
	sz := schemaSize{rows: map[string]int64{}}
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
		if _, err := conn.Exec(ctx, "VACUUM "+name); err != nil { // settle the sizes of the run
			return sz, err
		}
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+name).Scan(&n); err != nil {
			return sz, err
		}
		sz.rows[t] = n
	}
	err = conn.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`, schema).Scan(&sz.bytes)
	return sz, err
}

func dropSchema(ctx context.Context, url, schema string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}

// withSchema returns url with its schema parameter set.
func withSchema(url, schema string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "schema=" + schema
}
