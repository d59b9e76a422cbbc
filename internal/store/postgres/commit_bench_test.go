package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// BenchmarkCommitGroup measures Commit of a crawl's group commit on a cluster store (issue 31):
// 64 fetched pages of 64 origins the owner leases, each with a document, 20 links and 20 new
// URLs, fenced (Batch.Owner).
//
//	go test -run '^$' -bench CommitGroup ./internal/store/postgres/
func BenchmarkCommitGroup(b *testing.B) {
	const pages, links = 64, 20
	s := pgtest.Open(b)
	defer s.Close()
	ctx := b.Context()
	var seed store.Batch
	for o := range pages {
		seed.New = append(seed.New, store.NewURL{URL: fmt.Sprintf("http://h%d.test/", o),
			Origin: fmt.Sprintf("http://h%d.test", o), State: store.StateQueued, DiscoveredAt: t0})
	}
	if _, err := s.Commit(ctx, seed); err != nil {
		b.Fatal(err)
	}
	if _, err := s.LeaseOrigins(ctx, "a", t0, t0, time.Hour, pages); err != nil {
		b.Fatal(err)
	}
	round := 0
	for b.Loop() {
		b.StopTimer()
		var batch store.Batch
		batch.Owner = "a"
		for o := range pages {
			origin := fmt.Sprintf("http://h%d.test", o)
			u, err := s.DueURLs(ctx, origin, t0.Add(time.Hour), 1)
			if err != nil || len(u) != 1 {
				b.Fatalf("DueURLs(%s) = %d, %v", origin, len(u), err)
			}
			up := u[0]
			up.State, up.Status, up.FetchedAt, up.NextAt = store.StateFetched, 200, t0, time.Time{}
			batch.Updates = append(batch.Updates, up)
			batch.Documents = append(batch.Documents, store.Document{URLID: up.ID, Index: true, Title: "t", Text: "some words of a page"})
			for l := range links {
				to := fmt.Sprintf("%s/r%d/%d", origin, round, l)
				batch.New = append(batch.New, store.NewURL{URL: to, Origin: origin, State: store.StateQueued, DiscoveredAt: t0})
				batch.Links = append(batch.Links, store.Link{FromID: up.ID, To: to, Anchor: "a"})
			}
		}
		round++
		b.StartTimer()
		if _, err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
}
