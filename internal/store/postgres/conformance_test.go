package postgres_test

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
	"github.com/fractle/mandelbot/internal/store/storetest"
)

// TestConformance runs the store.Store conformance suite (the Shared checks included) against
// the local PostgreSQL, each check in a schema of its own.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return pgtest.Open(t) })
}
