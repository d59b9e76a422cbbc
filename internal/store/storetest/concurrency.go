package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

const (
	concurrentWriters = 8  // goroutines committing at once
	concurrentReaders = 2  // goroutines reading meanwhile
	writerBatches     = 25 // batches each writer commits
	writerOwnURLs     = 3  // URLs only one writer discovers, per batch
)

// store.Store: "safe for concurrent use by the goroutines of one crawl process". Eight writers
// commit at once, each batch with URLs of its own, a URL every writer discovers (exactly one of
// them may get it back as new), an update of its previous page and its origin's record, while
// readers list and query. No commit fails and no row is lost, duplicated or half written.
func testConcurrency(t *testing.T, s store.Store) {
	ctx := t.Context()
	added := make([][]store.URL, concurrentWriters) // added[w]: what writer w got back, in order
	var wg sync.WaitGroup
	for w := range concurrentWriters {
		wg.Go(func() {
			key := fmt.Sprintf("http://w%d.test", w)
			var prev store.URL
			for i := range writerBatches {
				var b store.Batch
				for j := range writerOwnURLs {
					b.New = append(b.New, queued(fmt.Sprintf("%s/%d/%d", key, i, j), 1, t0.Add(time.Duration(i)*time.Second)))
				}
				b.New = append(b.New, queued(fmt.Sprintf("http://shared.test/%d", i), 0, t0))
				if prev.ID != 0 {
					prev.State, prev.Status, prev.FetchedAt, prev.NextAt = store.StateFetched, 200, t0.Add(time.Hour), time.Time{}
					b.Updates = []store.URL{prev}
				}
				b.Origins = []store.Origin{{Key: key, PauseStrikes: i}}
				got, err := s.Commit(ctx, b)
				if err != nil {
					t.Errorf("writer %d, batch %d: Commit: %v", w, i, err)
					return
				}
				if len(got) == 0 || got[0].URL != b.New[0].URL {
					t.Errorf("writer %d, batch %d: Commit returned %q, want %s first", w, i, urlStrings(got), b.New[0].URL)
					return
				}
				added[w] = append(added[w], got...)
				prev = got[0]
			}
		})
	}
	for r := range concurrentReaders {
		wg.Go(func() {
			for range writerBatches {
				if _, err := s.DueURLs(ctx, "http://shared.test", t0, 100); err != nil {
					t.Errorf("reader %d: DueURLs: %v", r, err)
					return
				}
				if _, err := s.Counts(ctx, time.Now()); err != nil {
					t.Errorf("reader %d: Counts: %v", r, err)
					return
				}
				if _, _, err := s.Origin(ctx, "http://w0.test"); err != nil {
					t.Errorf("reader %d: Origin: %v", r, err)
					return
				}
				if err := s.EachURL(ctx, func(store.URL) error { return nil }); err != nil {
					t.Errorf("reader %d: EachURL: %v", r, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	stored := map[string]store.URL{}
	for _, u := range allURLs(t, s) {
		if _, dup := stored[u.URL]; dup {
			t.Errorf("%s stored twice", u.URL)
		}
		stored[u.URL] = u
	}
	if want := concurrentWriters*writerBatches*writerOwnURLs + writerBatches; len(stored) != want {
		t.Errorf("%d URLs stored, want %d", len(stored), want)
	}
	returned := map[string]int{} // how many writers got each URL back as new
	for w, us := range added {
		for _, u := range us {
			returned[u.URL]++
			if got, ok := stored[u.URL]; !ok || got.ID != u.ID {
				t.Errorf("writer %d got %s as new with ID %d; stored: %v, ID %d", w, u.URL, u.ID, ok, got.ID)
			}
		}
	}
	for u := range stored {
		if returned[u] != 1 {
			t.Errorf("%s returned as new to %d writers, want exactly 1", u, returned[u])
		}
	}
	for w := range concurrentWriters {
		key := fmt.Sprintf("http://w%d.test", w)
		for i := range writerBatches {
			u := stored[fmt.Sprintf("%s/%d/0", key, i)]
			if wantFetched := i < writerBatches-1; (u.State == store.StateFetched) != wantFetched {
				t.Errorf("%s: state %q, want fetched %v (updated by the writer's next batch)", u.URL, u.State, wantFetched)
			}
		}
		if o := origin(t, s, key); o.PauseStrikes != writerBatches-1 {
			t.Errorf("origin %s: PauseStrikes %d, want %d (the writer's last record)", key, o.PauseStrikes, writerBatches-1)
		}
	}
}
