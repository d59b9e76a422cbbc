package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// BenchmarkAcquire measures an acquire of a worker at politebench's scale (issue 31: 5,000
// origins of 20 queued URLs; the worker holds 4,096 and asks for room for 100 more, the rest
// being free): store.Leases.LeaseOrigins with max the batch, as leaseKeeper.Acquire calls it.
//
//	go test -run '^$' -bench Acquire ./internal/store/postgres/
func BenchmarkAcquire(b *testing.B) {
	const origins, pages, held = 5000, 20, 4096
	s := pgtest.Open(b)
	defer s.Close()
	ctx := b.Context()
	var batch store.Batch
	for o := range origins {
		for p := range pages {
			batch.New = append(batch.New, store.NewURL{URL: fmt.Sprintf("http://h%d.test/p/%d", o, p),
				Origin: fmt.Sprintf("http://h%d.test", o), State: store.StateQueued, DiscoveredAt: t0})
		}
	}
	if _, err := s.Commit(ctx, batch); err != nil {
		b.Fatal(err)
	}
	first, err := s.LeaseOrigins(ctx, "a", t0, t0, time.Minute, held)
	if err != nil || len(first) != held {
		b.Fatalf("LeaseOrigins = %d origins, %v", len(first), err)
	}
	mine := map[string]bool{}
	for _, k := range first {
		mine[k] = true
	}
	for b.Loop() {
		got, err := s.LeaseOrigins(ctx, "a", t0, t0, time.Minute, held+100)
		if err != nil || len(got) != held+100 {
			b.Fatalf("LeaseOrigins = %d origins, %v", len(got), err)
		}
		b.StopTimer()
		var fresh []string
		for _, k := range got {
			if !mine[k] {
				fresh = append(fresh, k)
			}
		}
		if err := s.ReleaseOrigins(ctx, "a", fresh); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
