package postgres_test

import (
	"fmt"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// IndexPending folds at most max documents (store.Indexer), also now that a process folds in
// several transactions at once (issue 31: its folds run two at a time): here 1,200 staged, three
// chunks' worth and more, and IndexPending(700) leaves 500 staged, then IndexPending(1000) the
// rest, none.
func TestIndexPendingFoldsAtMostMax(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	const docs = 1200
	var seed store.Batch
	for i := range docs {
		seed.New = append(seed.New, store.NewURL{URL: fmt.Sprintf("http://b%d.test/", i), Origin: fmt.Sprintf("http://b%d.test", i), State: store.StateQueued, DiscoveredAt: t0})
	}
	added, err := s.Commit(t.Context(), seed)
	if err != nil {
		t.Fatal(err)
	}
	var b store.Batch
	for _, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: "t", Text: "words"})
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ max, folded, lag int }{{700, 700, 500}, {1000, 500, 0}} {
		n, err := s.IndexPending(t.Context(), step.max)
		if err != nil {
			t.Fatal(err)
		}
		lag, err := s.IndexLag(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if n != step.folded || lag != step.lag {
			t.Errorf("IndexPending(%d) = %d, lag %d; want %d, lag %d", step.max, n, lag, step.folded, step.lag)
		}
	}
}
