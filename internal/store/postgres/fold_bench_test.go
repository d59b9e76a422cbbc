package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// BenchmarkFold measures IndexPending's folding of a crawl's documents (issue 31: at the
// politeness limit a worker's index trailed its crawl): each iteration stages the pages of
// foldOrigins origins of politebench's latency web (a home page linking to 19 pages, each
// linking home), then folds them all. The anchor generations are left out (fewer log rows
// than start one).
//
//	go test -run '^$' -bench Fold -benchtime 5x ./internal/store/postgres/
func BenchmarkFold(b *testing.B) {
	const foldOrigins, pages = 100, 20
	s := pgtest.Open(b)
	defer s.Close()
	ctx := b.Context()
	round := 0
	for b.Loop() {
		b.StopTimer()
		var seed store.Batch
		for o := range foldOrigins {
			origin := fmt.Sprintf("http://r%do%d.test", round, o)
			for p := range pages {
				seed.New = append(seed.New, store.NewURL{URL: fmt.Sprintf("%s/p/%d", origin, p), Origin: origin, State: store.StateQueued, DiscoveredAt: t0})
			}
		}
		added, err := s.Commit(ctx, seed)
		if err != nil {
			b.Fatal(err)
		}
		var batch store.Batch
		for i, u := range added {
			u.State, u.Status, u.FetchedAt, u.NextAt = store.StateFetched, 200, t0, t0.Add(time.Hour)
			batch.Updates = append(batch.Updates, u)
			p := i % pages
			batch.Documents = append(batch.Documents, store.Document{URLID: u.ID, Index: true,
				Title: fmt.Sprintf("Page %d", p), Text: fmt.Sprintf("Page %d Words of page %d, answered slowly. home", p, p)})
			home := added[i-p]
			if p == 0 {
				for q := 1; q < pages; q++ {
					batch.Links = append(batch.Links, store.Link{FromID: u.ID, To: added[i+q].URL, Anchor: fmt.Sprintf("page %d", q)})
				}
			} else {
				batch.Links = append(batch.Links, store.Link{FromID: u.ID, To: home.URL, Anchor: "home"})
			}
		}
		if _, err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
		round++
		b.StartTimer()
		for {
			n, err := s.IndexPending(ctx, 2000)
			if err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*foldOrigins*pages), "us/doc")
}
