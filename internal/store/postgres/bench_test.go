package postgres_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// benchDocs is the index size of BenchmarkSearch (issue 12: search latency per query class at
// 100,000 documents).
const benchDocs = 100_000

// BenchmarkSearch measures Search per query class on benchDocs documents of Zipf-distributed
// words (a few words in most documents, most words in few), each page linking to 4 others.
// Building the index takes about a minute; run it alone:
//
//	go test -run '^$' -bench Search -benchtime 50x ./internal/store/postgres/
func BenchmarkSearch(b *testing.B) {
	s := pgtest.Open(b)
	defer s.Close()
	ctx := b.Context()
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 1, 49_999)
	word := func() string { return fmt.Sprintf("w%d", zipf.Uint64()) }
	const chunk = 2000
	start := time.Now()
	for lo := 0; lo < benchDocs; lo += chunk {
		var batch store.Batch
		for i := lo; i < lo+chunk; i++ {
			batch.New = append(batch.New, store.NewURL{URL: fmt.Sprintf("http://h%d.test/p/%d", i%500, i), Origin: fmt.Sprintf("http://h%d.test", i%500), State: store.StateQueued, DiscoveredAt: t0})
		}
		added, err := s.Commit(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		batch = store.Batch{}
		for _, u := range added {
			u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
			var text strings.Builder
			for range 300 {
				text.WriteString(word() + " ")
			}
			batch.Updates = append(batch.Updates, u)
			batch.Documents = append(batch.Documents, store.Document{URLID: u.ID, Index: true, Title: word() + " " + word(), Text: text.String()})
			for range 4 {
				batch.Links = append(batch.Links, store.Link{FromID: u.ID, To: added[r.IntN(len(added))].URL, Anchor: word()})
			}
		}
		if _, err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
		if _, err := s.RefreshIndex(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("indexed %d documents in %v", benchDocs, time.Since(start).Round(time.Second))
	for _, c := range []struct{ class, q string }{
		{"common word", "w1"},
		{"mid word", "w100"},
		{"rare word", "w20000"},
		{"two common words", "w1 w2"},
		{"common and rare", "w1 w5000"},
		{"no match", "zzz"},
	} {
		b.Run(c.class, func(b *testing.B) {
			var total int
			for b.Loop() {
				p, err := s.Search(ctx, index.Query{Text: c.q, Now: t0})
				if err != nil {
					b.Fatal(err)
				}
				total = p.Total
			}
			b.ReportMetric(float64(total), "matches")
		})
	}
}
