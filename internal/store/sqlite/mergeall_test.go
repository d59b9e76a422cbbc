package sqlite

import (
	"context"
	"math"
)

// mergeAll folds every staged document, then merges the whole of link_log by the power-of-two
// rule (issue 26 part 2): IndexPending's merge, run whatever the log's size, and the number of
// documents and entries it wrote. Tests of the merge's decisions call it where IndexPending would
// wait for mergeLeast rows.
func mergeAll(ctx context.Context, s *Store) (int, error) {
	ctx, unlock, err := s.lockIndex(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	n, err := s.indexStagedLocked(ctx, math.MaxInt, foldBytes, false)
	if err != nil {
		return n, err
	}
	m, err := s.mergeLinks(ctx, anyLog, rewriteDue)
	return n + m, err
}
