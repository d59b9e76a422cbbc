package sqlite

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 (a crawl writes at most ~4x its store, and a page's cost does not grow with the
// crawl), layout-plan.md "Merges sized to links": a merge writes nearly every page of links, so
// merges every mergeRows log rows wrote links about (log rows / mergeRows) / 2 times over a
// crawl, growing with it. Merges that wait for the log to reach a share of links
// (mergeLogShare) write each page of links a bounded number of times: here the pages of links
// the crawl's merges changed, summed, stay within maxLinksWrites times the pages links ends
// with (merges every mergeRows rows changed them 33.4 times here, merges at a quarter of links
// 5.1 times; at links' own size 2.1).
func TestMergesWriteLinksABoundedNumberOfTimes(t *testing.T) {
	const (
		targets, pages, perPage = 4000, 3000, 10
		batch                   = 25
		mergeRows               = 500
		maxLinksWrites          = 3.0
	)
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{MergeRows: mergeRows})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	us := addURLs(t, s, targets)
	rng := rand.New(rand.NewPCG(26, 4))
	words := []string{"walrus", "narwhal", "seal", "dugong", "manatee", "orca", "beluga"}
	written := 0
	for first := 0; first < pages; first += batch {
		var b store.Batch
		for i := first; i < first+batch; i++ {
			u := us[i]
			u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
			b.Updates = append(b.Updates, u)
			b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "page"})
			for range perPage {
				b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[rng.IntN(targets)].URL,
					Anchor: words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]})
			}
		}
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
		before := linksPages(t, s)
		if _, err := s.IndexPending(ctx, batch); err != nil {
			t.Fatal(err)
		}
		written += changedPages(before, linksPages(t, s))
	}
	final := len(linksPages(t, s))
	got := float64(written) / float64(final)
	t.Logf("the crawl's merges changed %d pages of links, which ends with %d: %.1fx", written, final, got)
	if final == 0 || got > maxLinksWrites {
		t.Errorf("the merges of a crawl of %d pages changed %d pages of links, %.1f times the %d it ends with; want at most %.0f times",
			pages, written, got, final, maxLinksWrites)
	}
}

// linksPages returns the content of each page of links (the index database), by page number.
func linksPages(t *testing.T, s *Store) map[int64][]byte {
	t.Helper()
	return btreePages(t, s.iconn, "links")
}
