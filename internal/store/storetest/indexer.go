package storetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// search returns the URLs a query finds, failing the test on an error.
func search(t *testing.T, s store.Store, q string) []string {
	t.Helper()
	p, err := s.Search(t.Context(), index.Query{Text: q, Limit: 50, Now: t0})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	var out []string
	for _, r := range p.Results {
		out = append(out, r.URL)
	}
	return out
}

// store.Queue.Commit stages documents; store.Indexer folds them in: a committed document is not
// searchable before RefreshIndex (IndexPending only folds it), IndexLag counts it until then, and
// a link's target becomes a link-only entry (seed 001: found by its anchor text).
func testIndexerStagesDocuments(t *testing.T, s store.Store) {
	ctx := t.Context()
	page := commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/page", 0, t0)}})[0]
	blocked := store.NewURL{URL: "http://a.test/blocked", Origin: "http://a.test", Depth: 1, State: store.StateQueued, DiscoveredAt: t0}
	page.State, page.Status, page.FetchedAt = store.StateFetched, 200, t0
	commit(t, s, store.Batch{New: []store.NewURL{blocked}, Updates: []store.URL{page},
		Documents: []store.Document{{URLID: page.ID, Index: true, Title: "Walrus handbook", Text: "tusks and flippers"}},
		Links:     []store.Link{{FromID: page.ID, To: blocked.URL, Anchor: "secret narwhal"}}})

	if got := search(t, s, "walrus"); len(got) != 0 {
		t.Errorf("before indexing, search found %q; want nothing (documents are staged)", got)
	}
	if lag, err := s.IndexLag(ctx); err != nil || lag != 1 {
		t.Errorf("IndexLag = %d, %v; want 1 staged document", lag, err)
	}
	if n, err := s.IndexPending(ctx, 100); err != nil || n != 1 {
		t.Fatalf("IndexPending = %d, %v; want 1", n, err)
	}
	if n, err := s.IndexPending(ctx, 100); err != nil || n != 0 {
		t.Errorf("IndexPending again = %d, %v; want 0 (nothing left to fold)", n, err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	if got := search(t, s, "walrus"); !slices.Equal(got, []string{page.URL}) {
		t.Errorf("after RefreshIndex, search walrus = %q, want [%s]", got, page.URL)
	}
	if lag, err := s.IndexLag(ctx); err != nil || lag != 0 {
		t.Errorf("IndexLag = %d, %v after RefreshIndex; want 0", lag, err)
	}
	if got := search(t, s, "narwhal"); !slices.Equal(got, []string{blocked.URL}) {
		t.Errorf("search narwhal = %q, want the link-only entry [%s]", got, blocked.URL)
	}

	// A later fetch replaces the document and its links.
	commit(t, s, store.Batch{Updates: []store.URL{page},
		Documents: []store.Document{{URLID: page.ID, Index: true, Title: "Seal handbook", Text: "whiskers"}}})
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	if got := search(t, s, "walrus"); len(got) != 0 {
		t.Errorf("after a refetch, search walrus = %q, want nothing", got)
	}
	if got := search(t, s, "seal"); !slices.Equal(got, []string{page.URL}) {
		t.Errorf("after a refetch, search seal = %q, want [%s]", got, page.URL)
	}
	if got := search(t, s, "narwhal"); len(got) != 0 {
		t.Errorf("after a refetch without the link, search narwhal = %q, want nothing", got)
	}

	// A link needs its page's document in the same batch.
	_, err := s.Commit(ctx, store.Batch{Links: []store.Link{{FromID: page.ID, To: blocked.URL}}})
	if !errors.Is(err, store.ErrLinkWithoutDocument) {
		t.Errorf("Commit of a link without its document: %v, want ErrLinkWithoutDocument", err)
	}
}

// store.Indexer.IndexPending (issue 8, the index during a crawl; issue 26 part 2, its merges):
// on a store that merges the link changes waiting (Run's), every committed document is
// searchable after it, with the anchor text of its first links (an inlink count from 0 to 1 is a
// rewrite), and so is the link-only entry of a URL that is not queued (here out of scope: never
// to be fetched); only the link-only entry of a queued URL may wait for RefreshIndex, which
// writes it.
func testIndexerIndexPendingMerges(t *testing.T, s store.Store) {
	ctx := t.Context()
	added := commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/a", 0, t0), queued("http://a.test/b", 1, t0)}})
	a, b := added[0], added[1]
	next := queued("http://a.test/next", 1, t0)
	away := outOfScope("http://a.test/away", "max depth", t0)
	b.State, b.Status, b.FetchedAt = store.StateFetched, 200, t0
	commit(t, s, store.Batch{Updates: []store.URL{b},
		Documents: []store.Document{{URLID: b.ID, Index: true, Title: "Seal colony", Text: "whiskers"}}})
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	a.State, a.Status, a.FetchedAt = store.StateFetched, 200, t0
	commit(t, s, store.Batch{New: []store.NewURL{next, away}, Updates: []store.URL{a},
		Documents: []store.Document{{URLID: a.ID, Index: true, Title: "Walrus handbook", Text: "tusks"}},
		Links: []store.Link{{FromID: a.ID, To: b.URL, Anchor: "pinniped"}, {FromID: a.ID, To: next.URL, Anchor: "narwhal"},
			{FromID: a.ID, To: away.URL, Anchor: "dugong"}}})
	if _, err := s.IndexPending(ctx, 100); err != nil {
		t.Fatalf("IndexPending: %v", err)
	}
	for q, want := range map[string]string{"walrus": a.URL, "pinniped": b.URL, "dugong": away.URL} {
		if got := search(t, s, q); !slices.Equal(got, []string{want}) {
			t.Errorf("after IndexPending, search %s = %q, want [%s]", q, got, want)
		}
	}
	if lag, err := s.IndexLag(ctx); err != nil || lag != 0 {
		t.Errorf("IndexLag = %d, %v after IndexPending; want 0", lag, err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatalf("RefreshIndex: %v", err)
	}
	if got := search(t, s, "narwhal"); !slices.Equal(got, []string{next.URL}) {
		t.Errorf("after RefreshIndex, search narwhal = %q, want the queued URL's link-only entry [%s]", got, next.URL)
	}
}
