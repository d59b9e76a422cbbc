package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/storetest"
)

// TestConformance runs the store.Store conformance suite on a new database file per check, whose
// IndexPending merges every link change waiting (MergeAll: storetest.Run).
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{MergeAll: true})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
