package sqlite

import (
	"fmt"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// Issue 11 item 5: a word in more than index.MaxCount entries ranks a bounded candidate set
// (searchCandidates), not every match; the candidates include the entries matching in a title
// however late they were discovered, so the page about the word still comes first. Proximity
// still counts among candidates.
func TestSearchBoundedCandidatesKeepTitleMatches(t *testing.T) {
	s, _ := openTemp(t)
	n := index.MaxCount + 2*searchCandidates
	var news []store.NewURL
	for i := range n + 2 {
		news = append(news, newURL(fmt.Sprintf("http://c.test/%d", i), "http://c.test"))
	}
	added, err := s.Commit(t.Context(), store.Batch{New: news})
	if err != nil {
		t.Fatal(err)
	}
	var b store.Batch
	for i, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		d := store.Document{URLID: u.ID, Index: true, Title: fmt.Sprintf("page %d", i), Text: fmt.Sprintf("common words of page %d, far from the other", i)}
		switch i {
		case n: // discovered last: outside the first searchCandidates body matches
			d.Title = "Common"
		case n + 1:
			d.Title, d.Text = "Another page", "the common other words"
		}
		b.Documents = append(b.Documents, d)
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	p, err := s.Search(t.Context(), index.Query{Text: "common", Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if !p.TotalIsLowerBound || len(p.Results) == 0 || p.Results[0].URL != fmt.Sprintf("http://c.test/%d", n) {
		t.Errorf("common: lower bound %v, first %v; want the late page titled Common first", p.TotalIsLowerBound, p.Results)
	}
}

// Issue 8: during a crawl, RefreshDocuments leaves the link-only entry of a queued URL unwritten
// and dirty (it will most likely be fetched, and the entry would only be replaced), while it
// writes documents; the next RefreshIndex writes it.
func TestRefreshDocumentsDefersQueuedLinkOnly(t *testing.T) {
	s, _ := openTemp(t)
	ctx := t.Context()
	added, err := s.Commit(ctx, store.Batch{New: []store.NewURL{newURL("http://a.test/a", "http://a.test")}})
	if err != nil {
		t.Fatal(err)
	}
	a := added[0]
	next := newURL("http://a.test/next", "http://a.test")
	a.State, a.Status, a.FetchedAt = store.StateFetched, 200, t0
	if _, err := s.Commit(ctx, store.Batch{New: []store.NewURL{next}, Updates: []store.URL{a},
		Documents: []store.Document{{URLID: a.ID, Index: true, Title: "Walrus", Text: "tusks"}},
		Links:     []store.Link{{FromID: a.ID, To: next.URL, Anchor: "narwhal"}}}); err != nil {
		t.Fatal(err)
	}
	entries := func() (fts, dirty int) {
		t.Helper()
		if err := s.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM fts), (SELECT COUNT(*) FROM dirty WHERE url_id = ?)`,
			store.IDOf(next.URL)).Scan(&fts, &dirty); err != nil {
			t.Fatal(err)
		}
		return fts, dirty
	}
	if _, err := s.RefreshDocuments(ctx); err != nil {
		t.Fatal(err)
	}
	if fts, dirty := entries(); fts != 1 || dirty != 1 {
		t.Errorf("after RefreshDocuments: %d FTS rows, queued target dirty %d; want 1 (the document) and 1", fts, dirty)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if fts, dirty := entries(); fts != 2 || dirty != 0 {
		t.Errorf("after RefreshIndex: %d FTS rows, queued target dirty %d; want 2 (with the link-only entry) and 0", fts, dirty)
	}
}
