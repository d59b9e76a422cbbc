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
	ctx = context.WithoutCancel(ctx)
	if _, err := s.wconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(ctx, writeTx{s.wconn}); err != nil {
		return errors.Join(err, s.rollback(ctx))
	}
	if _, err := s.wconn.ExecContext(ctx, "COMMIT"); err != nil {
		return errors.Join(fmt.Errorf("commit: %w", err), s.rollback(ctx))
	}
	return nil
}

// rollback ends the writer's failed transaction. SQLite has already rolled it back after some
// errors (an interrupt, a full disk, an I/O error); that is not a second error.
func (s *Store) rollback(ctx context.Context) error {
	_, err := s.wconn.ExecContext(ctx, "ROLLBACK")
	if err != nil && !strings.Contains(err.Error(), "no transaction is active") {
		return fmt.Errorf("rollback: %w", err)
	}
	return nil
}
