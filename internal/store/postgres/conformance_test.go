package postgres_test

import (
	"context"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
	"github.com/fractle/mandelbot/internal/store/storetest"
)

// TestConformance runs the store.Store conformance suite (the Shared checks included) against
// the local PostgreSQL, each check in a schema of its own.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return merging{pgtest.Open(t)} })
}

// merging is a store whose IndexPending runs an anchor generation after every fold, as Run
// wants: the store's own waits for anchorLogSize link changes.
type merging struct{ *postgres.Store }

func (m merging) IndexPending(ctx context.Context, max int) (int, error) {
	n, err := m.Store.IndexPending(ctx, max)
	if err != nil {
		return n, err
	}
	_, err = m.MergeAnchors(ctx)
	return n, err
}
