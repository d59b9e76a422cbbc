package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Queue.LoadOrigin: the record, the due URLs as DueURLs orders them (More when the limit
// cut them), and the ID of every URL of the origin, due or not, and of no other origin.
func testLoadOrigin(t *testing.T, s store.Store) {
	ctx := t.Context()
	added := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/d1", 1, t0),
		queued("http://a.test/d0", 0, t0),
		outOfScope("http://a.test/out", "outside --max-depth", t0),
		queued("http://a.test/later", 0, t0.Add(time.Hour)),
		queued("http://b.test/other", 0, t0),
	}})
	rec := store.Origin{Key: "http://a.test", PauseReason: "answered 503", PauseStrikes: 2}
	commit(t, s, store.Batch{Origins: []store.Origin{rec}})

	got, err := s.LoadOrigin(ctx, "http://a.test", t0.Add(time.Minute), 1)
	if err != nil {
		t.Fatalf("LoadOrigin: %v", err)
	}
	if !got.Known || got.Origin.PauseReason != rec.PauseReason || got.Origin.PauseStrikes != 2 {
		t.Errorf("LoadOrigin record = %+v (known %v), want the committed one", got.Origin, got.Known)
	}
	if us := urlStrings(got.Due); !slices.Equal(us, []string{"http://a.test/d0"}) || !got.More {
		t.Errorf("LoadOrigin due = %q, more %v; want [http://a.test/d0] and more (limit 1, two due)", us, got.More)
	}
	var want []int64
	for _, u := range added {
		if u.Origin == "http://a.test" {
			want = append(want, u.ID)
		}
	}
	ids := slices.Clone(got.IDs)
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("LoadOrigin IDs = %v, want every URL of the origin %v", ids, want)
	}

	var waiting []int64
	for _, u := range added {
		if u.URL == "http://a.test/out" || u.URL == "http://a.test/later" {
			waiting = append(waiting, u.ID)
		}
	}
	w := slices.Clone(got.Waiting)
	slices.Sort(w)
	slices.Sort(waiting)
	if !slices.Equal(w, waiting) {
		t.Errorf("LoadOrigin Waiting = %v, want the out-of-scope URL and the one due later %v", w, waiting)
	}

	all, err := s.LoadOrigin(ctx, "http://a.test", t0.Add(time.Minute), 10)
	if err != nil {
		t.Fatalf("LoadOrigin: %v", err)
	}
	if us := urlStrings(all.Due); !slices.Equal(us, []string{"http://a.test/d0", "http://a.test/d1"}) || all.More {
		t.Errorf("LoadOrigin due = %q, more %v; want [d0 d1] and no more", us, all.More)
	}
	none, err := s.LoadOrigin(ctx, "http://unknown.test", t0, 10)
	if err != nil || none.Known || len(none.Due) != 0 || len(none.IDs) != 0 {
		t.Errorf("LoadOrigin of an unknown origin = %+v, %v; want nothing", none, err)
	}
}

// store.OriginLoad.Requested (issue 29): the origin's pages requested in any run, fetched or
// given up (error), and not those queued, out of scope, disallowed, or a sitemap, nor another
// origin's. The per-origin page budget of a resumed crawl starts from it.
func testLoadOriginRequested(t *testing.T, s store.Store) {
	added := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/fetched", 0, t0),
		queued("http://a.test/failed", 0, t0),
		queued("http://a.test/queued", 0, t0),
		queued("http://a.test/disallowed", 0, t0),
		outOfScope("http://a.test/out", "outside --max-depth", t0),
		{URL: "http://a.test/sitemap.xml", Origin: "http://a.test", Kind: store.KindSitemap, State: store.StateQueued, DiscoveredAt: t0},
		queued("http://b.test/fetched", 0, t0),
	}})
	var updates []store.URL
	for _, u := range added {
		switch u.URL {
		case "http://a.test/fetched", "http://b.test/fetched", "http://a.test/sitemap.xml":
			u.State, u.Status, u.FetchedAt, u.NextAt = store.StateFetched, 200, t0, t0.Add(24*time.Hour)
		case "http://a.test/failed":
			u.State, u.Attempts, u.NextAt = store.StateError, 3, t0.Add(24*time.Hour)
		case "http://a.test/disallowed":
			u.State, u.NextAt = store.StateRobotsDisallowed, t0.Add(24*time.Hour)
		default:
			continue
		}
		updates = append(updates, u)
	}
	commit(t, s, store.Batch{Updates: updates})
	got, err := s.LoadOrigin(t.Context(), "http://a.test", t0.Add(time.Minute), 10)
	if err != nil {
		t.Fatalf("LoadOrigin: %v", err)
	}
	if got.Requested != 2 {
		t.Errorf("LoadOrigin Requested = %d, want 2 (the fetched page and the one given up)", got.Requested)
	}
}
