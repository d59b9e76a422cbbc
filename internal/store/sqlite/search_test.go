package sqlite

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// Issue 8: during a crawl, IndexPending's merge (mergeAll) leaves the link-only entry of a queued
// URL unwritten and dirty (it will most likely be fetched, and the entry would only be replaced),
// while it writes documents; a later merge does not read it again (issue 26 part 2: only the
// merge's targets are read); the next RefreshIndex writes it; and a dirty URL whose document is
// folded is written and no longer dirty.
func TestMergeDefersQueuedLinkOnly(t *testing.T) {
	s, _ := openTemp(t)
	ctx := t.Context()
	added, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/a", "http://a.test")}})
	if err != nil {
		t.Fatal(err)
	}
	a := added[0]
	next, later := newURL("http://a.test/next", "http://a.test"), newURL("http://a.test/later", "http://a.test")
	a.State, a.Status, a.FetchedAt = store.StateFetched, 200, t0
	if _, err := s.Commit(ctx, store.Batch{New: []store.NewURL{next, later}, Updates: []store.URL{a},
		Documents: []store.Document{{URLID: a.ID, Index: true, Title: "Walrus", Text: "tusks"}},
		Links:     []store.Link{{FromID: a.ID, To: next.URL, Anchor: "narwhal"}, {FromID: a.ID, To: later.URL, Anchor: "beluga"}}}); err != nil {
		t.Fatal(err)
	}
	counts := func() (fts, dirty int) {
		t.Helper()
		if err := s.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM fts), (SELECT COUNT(*) FROM dirty)`).Scan(&fts, &dirty); err != nil {
			t.Fatal(err)
		}
		return fts, dirty
	}
	if _, err := mergeAll(ctx, s); err != nil {
		t.Fatal(err)
	}
	if fts, dirty := counts(); fts != 1 || dirty != 2 {
		t.Errorf("after a merge: %d FTS rows, %d dirty; want 1 (the document), 2", fts, dirty)
	}
	if n, err := mergeAll(ctx, s); err != nil || n != 0 {
		t.Errorf("a merge again = %d, %v; want 0: dirty entries are not read again", n, err)
	}
	// later is fetched: its document is written in place of the link-only entry it never had.
	l := store.URL{ID: store.IDOf(later.URL), URL: later.URL, Origin: later.Origin, State: store.StateFetched, Status: 200, FetchedAt: t0, DiscoveredAt: t0}
	if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{l},
		Documents: []store.Document{{URLID: l.ID, Index: true, Title: "Beluga", Text: "melon"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := mergeAll(ctx, s); err != nil {
		t.Fatal(err)
	}
	if fts, dirty := counts(); fts != 2 || dirty != 1 {
		t.Errorf("after the fetch of a dirty URL: %d FTS rows, %d dirty; want 2, 1", fts, dirty)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if fts, dirty := counts(); fts != 3 || dirty != 0 {
		t.Errorf("after RefreshIndex: %d FTS rows, %d dirty; want 3 (with the link-only entry), 0", fts, dirty)
	}
	p, err := s.Search(ctx, index.Query{Text: "narwhal", Limit: 10, Now: t0})
	if err != nil || len(p.Results) != 1 || p.Results[0].URL != next.URL || !p.Results[0].LinkOnly {
		t.Errorf("search narwhal = %+v, %v; want the link-only entry of %s", p.Results, err, next.URL)
	}
}

// Issue 11 item 5: the snippets of the page shown are read by seeking each result's rowid in the
// query's matches ("INDEX 0:=" in FTS5's plan), not by walking the whole match list of a word in
// most of the index and keeping the ten shown (13 of the 45 ms of a frequent word at 100,000
// documents).
func TestSearchSnippetsSeekResults(t *testing.T) {
	s, _ := openTemp(t)
	plan := queryPlan(t, s.read, sqlSnippets, `"word"`, "[1,2]")
	seeks := false
	for _, detail := range plan {
		seeks = seeks || strings.Contains(detail, "fts VIRTUAL TABLE INDEX 0:=")
	}
	if !seeks {
		t.Errorf("the snippet query walks the match list: %s", strings.Join(plan, "; "))
	}
}

// Issue 11 item 5: the read connections of a read-only store (search, serve) keep
// readerIndexCacheKiB of the index database's pages, so the repeated walks of a frequent word's
// match list in one search read its pages once; since the index is in a file of its own (issue
// 8), each file attached has its own cache, and the index database's must be the large one. A
// crawl's own readers keep less: its frontier reads the crawl database.
func TestReadConnectionsCachePages(t *testing.T) {
	s, path := openTemp(t)
	ro, err := Open(t.Context(), path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, c := range []struct {
		store *Store
		want  readerCaches
	}{{ro, readerCaches{index: readerIndexCacheKiB}}, {s, readerCaches{index: crawlReaderIndexCacheKiB}}} {
		for schema, want := range map[string]int{"main": readerCrawlCacheKiB, indexSchemaName: c.want.index} {
			var kib int
			if err := c.store.read.QueryRowContext(t.Context(), "PRAGMA "+schema+".cache_size").Scan(&kib); err != nil {
				t.Fatal(err)
			}
			if kib != -want {
				t.Errorf("read-only %v: a read connection's cache_size of %s is %d, want %d (KiB)", c.store.readOnly, schema, kib, -want)
			}
		}
	}
}
