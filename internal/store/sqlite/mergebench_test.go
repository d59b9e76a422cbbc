package sqlite

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// BenchmarkMergeLog measures RefreshIndex's merge of a log of many passes (issue 26, "Merges
// sized to links"): 40,000 folded pages of 12 links each wait in link_log (480,000 rows), merged
// in passes of 20,000 rows (48 ranges), as a crawl's final merge of millions of rows is in passes
// of mergeLinksRows. Each run merges a fresh copy of the store.
func BenchmarkMergeLog(b *testing.B) {
	const pages, targets, links, pass = 40_000, 60_000, 12, 20_000
	ctx := b.Context()
	base := filepath.Join(b.TempDir(), "crawl.db")
	s, err := Open(ctx, base, Options{MergeRows: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	var nb store.Batch
	for i := range targets {
		nb.New = append(nb.New, newURL(fmt.Sprintf("http://a%d.test/p/%d", i%100, i), fmt.Sprintf("http://a%d.test", i%100)))
	}
	us, err := s.Commit(ctx, nb)
	if err != nil {
		b.Fatal(err)
	}
	words := []string{"walrus", "narwhal", "seal", "dugong", "manatee", "orca", "beluga", ""}
	rng := rand.New(rand.NewPCG(26, 48))
	for start := 0; start < pages; start += 500 {
		var batch store.Batch
		for i := start; i < start+500; i++ {
			u := us[i]
			u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
			batch.Updates = append(batch.Updates, u)
			batch.Documents = append(batch.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "page"})
			for range links {
				batch.Links = append(batch.Links, store.Link{FromID: u.ID, To: us[rng.IntN(targets)].URL, Anchor: words[rng.IntN(len(words))]})
			}
		}
		if _, err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
		if _, err := s.IndexPending(ctx, 1<<30); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		path := copyStore(b, base)
		c, err := Open(ctx, path, Options{MergeRows: 1 << 40, passRows: pass})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := c.RefreshIndex(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
