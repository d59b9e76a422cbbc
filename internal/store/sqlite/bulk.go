package sqlite

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// idSet renders IDs as a JSON array, for `IN (SELECT value FROM json_each(?))`: one parameter
// however many IDs, and one statement text.
func idSet(ids []int64) string {
	b := make([]byte, 0, 2+20*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// pairSet renders n pairs of integers as a JSON array of two-element arrays, for
// `json_each(?)` with `value ->> 0` and `value ->> 1`.
func pairSet(n int, pair func(i int) (int64, int64)) string {
	b := make([]byte, 0, 2+44*n)
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		x, y := pair(i)
		b = append(b, '[')
		b = strconv.AppendInt(b, x, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, y, 10)
		b = append(b, ']')
	}
	return string(append(b, ']'))
}

// inSet is the SQL of a membership test against an idSet parameter.
const inSet = `IN (SELECT value FROM json_each(?))`

// maxBulkRows bounds the rows of one multi-row statement; insertRows splits larger sets into
// power-of-two runs, so each table needs at most log2(maxBulkRows)+1 statement texts (they stay
// in the writer's statement cache).
const maxBulkRows = 128

// insertRows inserts rows (each of cols values) with `prefix VALUES (...), ...`.
func insertRows(ctx context.Context, tx writeTx, prefix string, cols int, rows [][]any) error {
	for len(rows) > 0 {
		n := maxBulkRows
		for n > len(rows) {
			n /= 2
		}
		args := make([]any, 0, n*cols)
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, prefix+" VALUES "+values(n, cols), args...); err != nil {
			return fmt.Errorf("insert %d rows: %w", n, err)
		}
		rows = rows[n:]
	}
	return nil
}

// values is the SQL of n rows of cols parameters each: "(?, ?), (?, ?)".
func values(n, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
