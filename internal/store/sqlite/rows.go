package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
)

// querier runs a query: a transaction of a writer (writeTx), a read transaction, or the pool of
// readers.
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// eachRow runs query with args on q and calls fn with each row, in order, until fn fails; it
// returns the first error of the query, of fn, or of reading the rows. fn and the scans of
// collect and stream take *sql.Rows, not an interface: a Scan through an interface puts its
// arguments on the heap, an allocation per row.
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// collect runs query with args on q and returns what scan reads of each row, in order.
func collect[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := eachRow(ctx, q, query, args, func(r *sql.Rows) error {
		v, err := scan(r)
		if err == nil {
			out = append(out, v)
		}
		return err
	})
	return out, err
}

// stream runs query on q and calls fn with what scan reads of each row, in order, until fn
// fails: fn's error is returned as it is, the others wrapped with what.
func stream[T any](ctx context.Context, q querier, what string, scan func(*sql.Rows) (T, error), query string, fn func(T) error) error {
	var fnErr error
	err := eachRow(ctx, q, query, nil, func(r *sql.Rows) error {
		v, err := scan(r)
		if err == nil {
			fnErr = fn(v)
		}
		return cmp.Or(err, fnErr)
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	return nil
}

// scanID reads a row of one integer column.
func scanID(r *sql.Rows) (id int64, err error) { return id, r.Scan(&id) }

// queryIDs runs a query returning one integer column, and returns its values in the order read.
func queryIDs(ctx context.Context, q querier, query string, args ...any) ([]int64, error) {
	return collect(ctx, q, scanID, query, args...)
}

// queryMap runs a query of (ID, value) rows and returns the values by ID.
func queryMap[V int64 | float64](ctx context.Context, q querier, query string, args ...any) (map[int64]V, error) {
	out := map[int64]V{}
	err := eachRow(ctx, q, query, args, func(r *sql.Rows) error {
		var k int64
		var v V
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		out[k] = v
		return nil
	})
	return out, err
}
