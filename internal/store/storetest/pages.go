package storetest

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/store"
)

// allPages collects EachPage, failing the test on an error.
func allPages(t *testing.T, s store.Store) []store.Page {
	t.Helper()
	var out []store.Page
	if err := s.EachPage(t.Context(), func(p store.Page) error { out = append(out, p); return nil }); err != nil {
		t.Fatalf("EachPage: %v", err)
	}
	return out
}

// Issue 10 (`export --documents`): EachPage gives every fetched page, and only those, with the
// header, title, text and links (with anchor text) of its last fetch, the same before and after
// the indexer folds the document in; a page that may not be indexed keeps no text.
func testEachPageContent(t *testing.T, s store.Store) {
	ctx := t.Context()
	added := commit(t, s, store.Batch{New: []store.NewURL{
		queued("http://a.test/page", 0, t0), queued("http://a.test/quiet", 0, t0), queued("http://a.test/never", 0, t0)}})
	page, quiet, never := added[0], added[1], added[2]
	page.State, page.Status, page.FetchedAt = store.StateFetched, 200, t0
	quiet.State, quiet.Status, quiet.FetchedAt, quiet.NoIndex = store.StateFetched, 200, t0, true
	header := http.Header{"Content-Type": {"text/html"}, "X-Robots-Tag": {"noarchive", "nosnippet"}}
	commit(t, s, store.Batch{Updates: []store.URL{page, quiet},
		Documents: []store.Document{
			{URLID: page.ID, Index: true, Title: "Walrus handbook", Text: "tusks and flippers", Header: header},
			{URLID: quiet.ID, Index: false, Title: "Secret", Text: "not to be kept", Header: http.Header{"Server": {"x"}}},
		},
		Links: []store.Link{{FromID: page.ID, To: never.URL, Anchor: "never fetched"}, {FromID: page.ID, To: quiet.URL, Anchor: "quiet"}}})
	want := []store.Page{
		{URL: page, Header: header, Title: "Walrus handbook", Text: "tusks and flippers",
			Links: []store.PageLink{{To: never.URL, Anchor: "never fetched"}, {To: quiet.URL, Anchor: "quiet"}}},
		{URL: quiet, Header: http.Header{"Server": {"x"}}},
	}
	if d := diff(want, allPages(t, s)); d != "" {
		t.Errorf("EachPage before indexing (-want +got):\n%s", d)
	}
	if _, err := s.IndexPending(ctx, 100); err != nil {
		t.Fatalf("IndexPending: %v", err)
	}
	if d := diff(want, allPages(t, s)); d != "" {
		t.Errorf("EachPage after IndexPending (-want +got):\n%s", d)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	if d := diff(want, allPages(t, s)); d != "" {
		t.Errorf("EachPage after RefreshIndex (-want +got):\n%s", d)
	}

	// A refetch replaces everything: a 404 keeps its header and nothing else.
	page.Status = 404
	commit(t, s, store.Batch{Updates: []store.URL{page},
		Documents: []store.Document{{URLID: page.ID, Header: http.Header{"Content-Length": {"0"}}}}})
	want[0] = store.Page{URL: page, Header: http.Header{"Content-Length": {"0"}}}
	if d := diff(want, allPages(t, s)); d != "" {
		t.Errorf("EachPage after a refetch (-want +got):\n%s", d)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	if d := diff(want, allPages(t, s)); d != "" {
		t.Errorf("EachPage after a refetch, indexed (-want +got):\n%s", d)
	}
}

// Issue 10: EachPage reads in batches (store.PageBatch) and still gives every page once, in
// discovery order; an error from fn stops the walk.
func testEachPageBatches(t *testing.T, s store.Store) {
	n := 3*store.PageBatch + 5
	var news []store.NewURL
	for i := range n {
		news = append(news, queued(fmt.Sprintf("http://b%d.test/p", i%7)+fmt.Sprint(i), 0, t0))
	}
	added := commit(t, s, store.Batch{New: news})
	var docs []store.Document
	var want []string
	for i := range added {
		if i%5 == 4 {
			continue // not fetched: not a page of EachPage
		}
		added[i].State, added[i].Status, added[i].FetchedAt = store.StateFetched, 200, t0
		docs = append(docs, store.Document{URLID: added[i].ID, Index: true, Title: fmt.Sprint("page ", i)})
		want = append(want, added[i].URL)
	}
	upd := slices.DeleteFunc(slices.Clone(added), func(u store.URL) bool { return u.FetchedAt.IsZero() })
	commit(t, s, store.Batch{Updates: upd, Documents: docs})
	var got []string
	for _, p := range allPages(t, s) {
		got = append(got, p.URL.URL)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("EachPage over %d pages (-want +got):\n%s", len(want), d)
	}
	stop := fmt.Errorf("stop")
	calls := 0
	err := s.EachPage(t.Context(), func(store.Page) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Errorf("EachPage with fn failing: %d calls, %v; want 1 call and fn's error", calls, err)
	}
}
