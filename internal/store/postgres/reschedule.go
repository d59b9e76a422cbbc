package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
)

// Reschedule implements store.Queue: at most two UPDATEs in one transaction. It is not fenced:
// it changes due times only, and a process holding an origin's lease reads them at its next
// refill.
func (s *Store) Reschedule(ctx context.Context, r store.Reschedule) error {
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if r.Revisit > 0 {
			if _, err := tx.Exec(ctx, `UPDATE urls SET next_at = fetched_at + $1::bigint * interval '1 microsecond'
				WHERE state = $2 AND fetched_at IS NOT NULL`, r.Revisit.Microseconds(), string(store.StateFetched)); err != nil {
				return fmt.Errorf("apply the revisit interval: %w", err)
			}
		}
		if !r.FetchedBefore.IsZero() {
			if _, err := tx.Exec(ctx, `UPDATE urls SET next_at = $1
				WHERE state = $2 AND fetched_at IS NOT NULL AND fetched_at <= $3 AND (next_at IS NULL OR next_at > $1)`,
				tz(r.Now), string(store.StateFetched), tz(r.FetchedBefore)); err != nil {
				return fmt.Errorf("make fetched URLs due: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: reschedule: %w", err)
	}
	return nil
}
