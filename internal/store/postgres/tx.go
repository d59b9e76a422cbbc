package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// maxTxAttempts bounds how often inTx runs a transaction that PostgreSQL aborted as a deadlock
// victim or a serialization failure (processes writing the same rows in different orders; rare,
// because every multi-row statement takes its rows in key order).
const maxTxAttempts = 5

// retryable reports an error after which the whole transaction may simply run again.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// inTx runs fn in a read-committed transaction, committing when it returns nil, and runs it
// again (at most maxTxAttempts times in all) after a deadlock or serialization failure.
//
// ctx is checked once, before the first attempt; the transaction then runs to its end without
// it, as the SQLite store's do: a crawl being stopped is better served by its last outcomes
// committed than by an interrupted transaction.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	var err error
	for range maxTxAttempts {
		if err = s.tryTx(ctx, fn); err == nil || !retryable(err) {
			return err
		}
	}
	return fmt.Errorf("after %d attempts: %w", maxTxAttempts, err)
}

func (s *Store) tryTx(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(ctx, tx); err != nil {
		if rerr := rollback(ctx, tx); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func rollback(ctx context.Context, tx pgx.Tx) error {
	if err := tx.Rollback(ctx); err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		return fmt.Errorf("rollback: %w", err)
	}
	return nil
}
