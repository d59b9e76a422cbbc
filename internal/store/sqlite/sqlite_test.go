package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/store"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func newURL(u, origin string) store.NewURL {
	return store.NewURL{URL: u, Origin: origin, State: store.StateQueued, DiscoveredAt: t0}
}

func TestCommitDeduplicatesAndRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	added, err := s.Commit(ctx, store.Batch{New: []store.NewURL{
		newURL("http://a.test/1", "http://a.test"),
		newURL("http://a.test/1", "http://a.test"), // twice in one batch
		{URL: "http://b.test/", Origin: "http://b.test", State: store.StateOutOfScope, Reason: "host", DiscoveredAt: t0},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 2 || added[0].URL != "http://a.test/1" || !added[0].NextAt.Equal(t0) || !added[1].NextAt.IsZero() {
		t.Fatalf("added %+v", added)
	}
	again, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/1", "http://a.test")}})
	if err != nil || len(again) != 0 {
		t.Fatalf("known URL added again: %v %v", again, err)
	}
	u := added[0]
	u.State, u.Status, u.Reason, u.RuleLine = store.StateFetched, 200, "ok", 3
	u.FetchedAt, u.NextAt, u.Attempts, u.ContentType, u.Location = t0.Add(time.Second), t0.Add(24*time.Hour), 1, "text/html", "http://x/"
	u.Indexed, u.NoIndex, u.NoFollow, u.Depth, u.Hops = true, true, true, 2, 1
	rec := store.Origin{Key: "http://a.test", PausedUntil: t0.Add(time.Hour), PauseStrikes: 2, PauseReason: "503", Probing: true,
		Sitemaps: []string{"http://a.test/s.xml"},
		Robots: store.RobotsRecord{Kind: 1, Status: 200, Body: []byte("User-agent: *\n"), Reason: "r", FetchedAt: t0,
			ExpiresAt: t0.Add(48 * time.Hour), ETag: `"e"`, LastMod: "lm", FailingSince: t0, Failures: 2, RetryAt: t0,
			AsNotFound: true, GoodBody: true}}
	if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{u}, Origins: []store.Origin{rec}}); err != nil {
		t.Fatal(err)
	}
	var got []store.URL
	if err := s.EachURL(ctx, func(x store.URL) error { got = append(got, x); return nil }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got[0]); diff != "" {
		t.Errorf("URL round trip (-want +got):\n%s", diff)
	}
	o, ok, err := s.Origin(ctx, "http://a.test")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if diff := cmp.Diff(rec, o); diff != "" {
		t.Errorf("origin round trip (-want +got):\n%s", diff)
	}
	if _, ok, _ := s.Origin(ctx, "http://b.test"); !ok {
		t.Error("origin of a new URL not created")
	}
	counts, _ := s.Counts(ctx)
	if counts[store.StateFetched] != 1 || counts[store.StateOutOfScope] != 1 {
		t.Errorf("counts %v", counts)
	}
}

func TestUnknownUpdateRollsBackTheBatch(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	_, err := s.Commit(ctx, store.Batch{
		New:     []store.NewURL{newURL("http://a.test/x", "http://a.test")},
		Updates: []store.URL{{ID: 999, URL: "http://nowhere/", State: store.StateFetched}},
	})
	if !errors.Is(err, ErrUnknownURL) {
		t.Fatalf("err = %v", err)
	}
	n := 0
	s.EachURL(ctx, func(store.URL) error { n++; return nil })
	if n != 0 {
		t.Fatalf("%d URLs landed from a failed batch", n)
	}
}

func TestDueURLsAndLeases(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a := store.NewURL{URL: "http://a.test/deep", Origin: "http://a.test", Depth: 2, State: store.StateQueued, DiscoveredAt: t0}
	b := store.NewURL{URL: "http://a.test/shallow", Origin: "http://a.test", Depth: 0, State: store.StateQueued, DiscoveredAt: t0.Add(time.Second)}
	c := store.NewURL{URL: "http://c.test/later", Origin: "http://c.test", State: store.StateQueued, DiscoveredAt: t0.Add(time.Hour)}
	if _, err := s.Commit(ctx, store.Batch{New: []store.NewURL{a, b, c}}); err != nil {
		t.Fatal(err)
	}
	due, err := s.DueURLs(ctx, "http://a.test", t0.Add(time.Minute), 10)
	if err != nil || len(due) != 2 || due[0].URL != b.URL {
		t.Fatalf("due %v %v: want shallowest first", due, err)
	}
	keys, err := s.LeaseOrigins(ctx, "me", t0, t0.Add(time.Minute), time.Minute, 10)
	if err != nil || len(keys) != 1 || keys[0] != "http://a.test" {
		t.Fatalf("leased %v %v", keys, err)
	}
	keys, _ = s.LeaseOrigins(ctx, "me", t0, t0.Add(2*time.Hour), time.Minute, 10)
	if len(keys) != 2 {
		t.Fatalf("leased %v", keys)
	}
}

// One crawl process per store: a second Open fails until the first closes.
func TestLockIsExclusive(t *testing.T) {
	s, path := openTemp(t)
	if _, err := Open(context.Background(), path, Options{}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
	s2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

func TestNewerSchemaRefused(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.write.Exec(`UPDATE meta SET value = '999' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), path, Options{}); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("err = %v", err)
	}
}

// A read-only store reads while another handle holds the write lock, and refuses writes.
func TestReadOnlyBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	w, path := openTemp(t)
	if _, err := w.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/", "http://a.test")}}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open beside the writer: %v", err)
	}
	defer r.Close()
	n := 0
	if err := r.EachURL(ctx, func(store.URL) error { n++; return nil }); err != nil || n != 1 {
		t.Fatalf("read %d URLs: %v", n, err)
	}
	if _, err := r.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://b.test/", "http://b.test")}}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write through a read-only store: %v", err)
	}
	if _, err := Open(ctx, path+".missing", Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a missing file must fail, not create it")
	}
}
