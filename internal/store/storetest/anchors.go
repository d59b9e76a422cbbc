package storetest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// anchorWeb is a target page and pages that link to it, committed and refreshed step by step by
// the anchor checks (issue 26 part 2). Each page links to the target with an anchor word of its
// own, a word no page's text holds, so that a search for it finds the target exactly when the
// target's anchor text holds that page's link.
type anchorWeb struct {
	t      *testing.T
	s      store.Store
	target store.URL
	pages  []store.URL
}

// anchorWords are the anchor words of the pages' links, page i's at i.
var anchorWords = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}

// newAnchorWeb commits the target, fetched, and len(anchorWords) queued pages.
func newAnchorWeb(t *testing.T, s store.Store) *anchorWeb {
	w := &anchorWeb{t: t, s: s}
	news := []store.NewURL{queued("http://a.test/target", 0, t0)}
	for i := range anchorWords {
		news = append(news, queued(fmt.Sprintf("http://a.test/p%d", i), 1, t0))
	}
	added := commit(t, s, store.Batch{New: news})
	w.target, w.pages = added[0], added[1:]
	w.fetch(w.target, "Target walrus", false)
	return w
}

// fetch commits u fetched, with a document, and with its link to the target if link.
func (w *anchorWeb) fetch(u store.URL, title string, link bool) {
	w.t.Helper()
	u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
	b := store.Batch{Updates: []store.URL{u}, Documents: []store.Document{{URLID: u.ID, Index: true, Title: title, Text: "lorem ipsum"}}}
	if i := slices.IndexFunc(w.pages, func(p store.URL) bool { return p.ID == u.ID }); link && i >= 0 {
		b.Links = []store.Link{{FromID: u.ID, To: w.target.URL, Anchor: anchorWords[i]}}
	}
	commit(w.t, w.s, b)
}

// link fetches pages from .. to-1, each linking to the target; unlink fetches them again
// without their links.
func (w *anchorWeb) link(from, to int) {
	w.t.Helper()
	for i := from; i < to; i++ {
		w.fetch(w.pages[i], fmt.Sprintf("Page %d", i), true)
	}
}

func (w *anchorWeb) unlink(from, to int) {
	w.t.Helper()
	for i := from; i < to; i++ {
		w.fetch(w.pages[i], fmt.Sprintf("Page %d", i), false)
	}
}

// refresh runs IndexPending, whose merge rewrites anchor text by the power-of-two rule (Run's
// stores merge every link change waiting), or, exact, RefreshIndex.
func (w *anchorWeb) refresh(exact bool) {
	w.t.Helper()
	var err error
	if exact {
		_, err = w.s.RefreshIndex(w.t.Context())
	} else {
		_, err = w.s.IndexPending(w.t.Context(), math.MaxInt)
	}
	if err != nil {
		w.t.Fatalf("refresh (exact %v): %v", exact, err)
	}
}

// expect checks which of the pages' anchor words find the target: those of pages [from, to).
func (w *anchorWeb) expect(when string, from, to int) {
	w.t.Helper()
	for i, word := range anchorWords {
		var want []string
		if i >= from && i < to {
			want = []string{w.target.URL}
		}
		if got := search(w.t, w.s, word); !slices.Equal(got, want) {
			w.t.Errorf("%s: search %s (page %d's anchor) = %q, want %q", when, word, i, got, want)
		}
	}
}

// Issue 26 part 2 (store.Indexer.IndexPending's merges: an entry's anchor text within a factor of
// two of its inlinks, written O(log inlinks) times over a crawl, never once per merge): a
// target's anchor text is written when it has none, is not rewritten while its inlinks stay
// between half and twice the count of its last rewrite, and is rewritten once they reach either.
func testIndexerAnchorsWithinFactorTwo(t *testing.T, s store.Store) {
	w := newAnchorWeb(t, s)
	w.link(0, 2)
	w.refresh(false)
	w.expect("2 inlinks, the target's first anchor text", 0, 2)
	if got := search(t, s, "walrus"); !slices.Equal(got, []string{w.target.URL}) {
		t.Errorf("search walrus (the target's own text) = %q, want [%s]", got, w.target.URL)
	}
	w.link(2, 3)
	w.refresh(false)
	w.expect("3 inlinks after a rewrite at 2: not rewritten", 0, 2)
	w.link(3, 4)
	w.refresh(false)
	w.expect("4 inlinks after a rewrite at 2: rewritten", 0, 4)
	w.unlink(2, 3)
	w.refresh(false)
	w.expect("3 inlinks after a rewrite at 4: not rewritten", 0, 4)
	w.unlink(3, 4)
	w.refresh(false)
	w.expect("2 inlinks after a rewrite at 4: rewritten", 0, 2)
}

// Issue 26 part 2 (store.Indexer.RefreshIndex stays exact): links a merge during the crawl
// left out of a target's anchor text, added or removed, are in it after RefreshIndex.
func testIndexerRefreshIndexExact(t *testing.T, s store.Store) {
	w := newAnchorWeb(t, s)
	w.link(0, 4)
	w.refresh(false)
	w.expect("4 inlinks, the target's first anchor text", 0, 4)
	w.link(4, 6)
	w.unlink(0, 1)
	w.refresh(false)
	w.expect("5 inlinks after a rewrite at 4: not rewritten", 0, 4)
	w.refresh(true)
	w.expect("after RefreshIndex", 1, 6)
}
