package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Store.Seeds: "page URLs at depth 0 reached by no redirect, in ID order", from every run:
// not a redirect's target at depth 0, not a sitemap, not a linked page, whatever their state.
func testSeeds(t *testing.T, s store.Store) {
	if got, err := s.Seeds(t.Context()); err != nil || len(got) != 0 {
		t.Fatalf("new store: Seeds = %q, %v; want none", got, err)
	}
	redirected := queued("http://a.test/moved", 0, t0)
	redirected.Hops = 1
	sitemap := queued("http://a.test/sitemap.xml", 0, t0)
	sitemap.Kind = store.KindSitemap
	run1 := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://b.test/", 0, t0), // run 1's seeds
		redirected,
		queued("http://a.test/", 0, t0),
		sitemap,
		queued("http://a.test/linked", 1, t0),
	}})
	fetched := run1[0]
	fetched.State, fetched.Status, fetched.FetchedAt, fetched.NextAt = store.StateFetched, 200, t0.Add(time.Minute), time.Time{}
	commit(t, s, store.Batch{Updates: []store.URL{fetched}})
	commit(t, s, store.Batch{New: []store.NewURL{queued("http://c.test/", 0, t0.Add(time.Hour))}}) // run 2's seed

	want := []string{"http://b.test/", "http://a.test/", "http://c.test/"}
	if got, err := s.Seeds(t.Context()); err != nil || !slices.Equal(got, want) {
		t.Errorf("Seeds = %q, %v; want %q", got, err, want)
	}
}
