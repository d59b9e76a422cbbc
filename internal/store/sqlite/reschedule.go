package sqlite

import (
	"context"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// Reschedule implements store.Queue: at most two UPDATEs in one transaction.
func (s *Store) Reschedule(ctx context.Context, r store.Reschedule) error {
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		if r.Revisit > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE urls SET next_at = fetched_at + ?
				WHERE state = ? AND fetched_at > 0`, r.Revisit.Nanoseconds(), string(store.StateFetched)); err != nil {
				return fmt.Errorf("apply the revisit interval: %w", err)
			}
		}
		if !r.FetchedBefore.IsZero() {
			now := unix(r.Now)
			if _, err := tx.ExecContext(ctx, `UPDATE urls SET next_at = ?
				WHERE state = ? AND fetched_at > 0 AND fetched_at <= ? AND (next_at = 0 OR next_at > ?)`,
				now, string(store.StateFetched), unix(r.FetchedBefore), now); err != nil {
				return fmt.Errorf("make fetched URLs due: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: reschedule: %w", err)
	}
	return nil
}
