package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// writeTx is a write transaction on the Store's one writer connection. It runs statements like
// a *sql.Tx; the prepared statements of Store.stmts belong to the same connection.
type writeTx struct {
	*sql.Conn
	cache *stmtCache
}

// maxCachedStatements bounds the writer's statement cache: the index code's SQL is a fixed set
// of constants, and a multi-row insert has one text per row count.
const maxCachedStatements = 256

// stmtCache keeps the writer connection's statements prepared, keyed by their SQL text, so that
// SQLite does not parse the same SQL again for every page (it was a fifth of the crawl's CPU).
// It is used under Store.writeMu only.
type stmtCache struct {
	stmts map[string]*sql.Stmt
}

func (c *stmtCache) prepare(ctx context.Context, conn *sql.Conn, query string) (*sql.Stmt, error) {
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if len(c.stmts) < maxCachedStatements {
		if c.stmts == nil {
			c.stmts = make(map[string]*sql.Stmt)
		}
		c.stmts[query] = st
	}
	return st, nil
}

func (c *stmtCache) close() {
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
}

// ExecContext runs query as a cached prepared statement.
func (tx writeTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := tx.cache.prepare(ctx, tx.Conn, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// QueryContext runs query as a cached prepared statement.
func (tx writeTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := tx.cache.prepare(ctx, tx.Conn, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query as a cached prepared statement; errors show in Row.Scan.
func (tx writeTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := tx.cache.prepare(ctx, tx.Conn, query)
	if err != nil {
		return tx.Conn.QueryRowContext(ctx, query, args...) // reports the same error on Scan
	}
	return st.QueryRowContext(ctx, args...)
}

// inTx runs fn in a write transaction: BEGIN IMMEDIATE, then COMMIT when fn returns nil and
// ROLLBACK otherwise. Transactions run one at a time (writeMu).
//
// ctx is checked once, before the transaction begins; the transaction then runs to its end
// without it. A batch is short, and a crawl being stopped is better served by its last outcomes
// committed than by an interrupted transaction. It also spares every statement the goroutine
// that database/sql and the driver start to watch a cancellable context.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx writeTx) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return runTx(context.WithoutCancel(ctx), writeTx{Conn: s.wconn, cache: &s.wcache}, fn)
}

// runTx runs fn in a transaction of tx's connection: BEGIN IMMEDIATE, then COMMIT when fn
// returns nil and ROLLBACK otherwise. The caller holds the lock that guards the connection.
func runTx(ctx context.Context, tx writeTx, fn func(ctx context.Context, tx writeTx) error) error {
	if _, err := tx.Conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(ctx, tx); err != nil {
		return errors.Join(err, rollback(ctx, tx.Conn))
	}
	if _, err := tx.Conn.ExecContext(ctx, "COMMIT"); err != nil {
		return errors.Join(fmt.Errorf("commit: %w", err), rollback(ctx, tx.Conn))
	}
	return nil
}

// lockIndex takes indexMu, which guards the index writer, for one step of the
// indexer, and returns ctx without its cancellation (a step begun is finished: its commits are
// ordered, see indexTxLocked) and the function that releases indexMu. It takes nothing, and says
// why, when the store is read-only or ctx has ended.
func (s *Store) lockIndex(ctx context.Context) (context.Context, func(), error) {
	if s.readOnly {
		return nil, nil, ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	s.indexMu.Lock()
	return context.WithoutCancel(ctx), s.indexMu.Unlock, nil
}

// indexTxLocked is inTx on the index database's writer (attach.go), for a caller that holds
// indexMu (lockIndex): the indexer's transactions, one at a time, beside the crawl's (writeMu).
// fn writes the index database only (the crawl database is attached read-only). Then, once fn's
// transaction is committed and if fn set it, *ack runs in a transaction of the crawl's writer
// (inTx), still under indexMu: it records in the crawl database what was indexed (a staged
// document folded, or unstaged). A crash between the two commits leaves the crawl database as it
// was, and the indexer does the same work again: every step of the indexer is idempotent. Lock
// order: indexMu, then writeMu.
func (s *Store) indexTxLocked(ctx context.Context, fn func(ctx context.Context, tx writeTx, ack *func(context.Context, writeTx) error) error) error {
	var ack func(context.Context, writeTx) error
	err := runTx(ctx, writeTx{Conn: s.iconn, cache: &s.icache}, func(ctx context.Context, tx writeTx) error {
		return fn(ctx, tx, &ack)
	})
	if err != nil {
		return err
	}
	if ack == nil {
		return nil
	}
	if err := s.inTx(ctx, ack); err != nil {
		return fmt.Errorf("record what was indexed: %w", err)
	}
	return nil
}

// rollback ends the writer's failed transaction. SQLite has already rolled it back after some
// errors (an interrupt, a full disk, an I/O error); that is not a second error.
func rollback(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "ROLLBACK")
	if err != nil && !strings.Contains(err.Error(), "no transaction is active") {
		return fmt.Errorf("rollback: %w", err)
	}
	return nil
}
