package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// An entry's rows in fts and fts_anchors are under its number (docs.num), not its URL ID (issue
// 8). URL IDs are hashes (store.IDOf), so rows under them land all over FTS5's content and
// docsize tables, and its match lists hold gaps of up to 2⁶³ between neighbours. Numbers are
// given in the order entries are made, so a chunk's new rows are appended, and neighbours in a
// match list are close. Writing the own text of 20,000 pages of 300 words took 206 µs a page under
// increasing rowids against 441 under hashed ones, and the index was half the size (5,675 FTS5
// blocks against 11,963).
//
// An entry keeps its number while it is one (a document fetched again, or a link-only entry that
// becomes a document, is rewritten under it); an entry that leaves the index and comes back gets
// a new one. Numbers are given from firstNum up: small positive rowids are FTS5's shortest.
const firstNum = 1

// sqlLastNum reads the highest number given (NULL if none), by a seek in docs, whose key it is.
const sqlLastNum = `SELECT MAX(num) FROM docs`

// numbers gives new entries their numbers within one transaction of the index database: the
// first is the one after the highest in docs as the transaction sees it. The caller writes, in
// that transaction, the docs rows of the numbers it takes before it reads numbers again: a
// number taken and not written (its transaction did not commit) is given again. The zero value
// is not ready: use newNumbers. It is not safe for concurrent use; the indexer uses it under
// indexMu.
type numbers struct {
	last int64 // the highest number given
}

// newNumbers reads where numbering stands in tx.
func newNumbers(ctx context.Context, tx rowQuerier) (*numbers, error) {
	var last sql.NullInt64
	if err := tx.QueryRowContext(ctx, sqlLastNum).Scan(&last); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("index: entry numbers: %w", err)
	}
	n := &numbers{last: firstNum - 1}
	if last.Valid {
		n.last = last.Int64
	}
	return n, nil
}

// next returns a new number.
func (n *numbers) next() int64 {
	n.last++
	return n.last
}

// sqlNums reads the numbers of the entries of an idSet.
const sqlNums = `SELECT url_id, num FROM docs WHERE url_id ` + inSet

// readNums returns the number of each entry of ids that is one, by URL ID.
func readNums(ctx context.Context, q querier, ids []int64) (map[int64]int64, error) {
	if len(ids) == 0 {
		return map[int64]int64{}, nil
	}
	out, err := queryMap[int64](ctx, q, sqlNums, idSet(ids))
	if err != nil {
		return nil, fmt.Errorf("entry numbers: %w", err)
	}
	return out, nil
}
