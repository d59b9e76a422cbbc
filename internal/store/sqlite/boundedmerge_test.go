package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 (merges sized to links): a merge decides whether each target's anchor text is due
// (store.AnchorsDue: its linking pages doubled or halved since it was written). A merge that
// changes a few of a target's many links cannot make it due, and must not read all of them to
// find that out: those reads grew with the crawl, every merge reading the whole inlink list of
// every popular target it touched. The decisions stay the power-of-two rule's: the entry is
// rewritten at the merge that brings it to twice its inlinks, not before.
func TestMergeReadsNoLinksOfATargetThatCannotBeDue(t *testing.T) {
	const (
		first = 40 // pages linking to the target when its anchor text is written
		pages = 2 * first
	)
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const origin = "http://a.test"
	news := []store.NewURL{newURL(origin+"/target", origin)}
	for i := range pages {
		news = append(news, newURL(fmt.Sprintf("%s/p%d", origin, i), origin))
	}
	added, err := s.Commit(ctx, store.Batch{New: news})
	if err != nil || len(added) != pages+1 {
		t.Fatalf("added %d URLs, %v", len(added), err)
	}
	target := added[0]
	fetch := func(u store.URL, link bool) {
		t.Helper()
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b := store.Batch{Updates: []store.URL{u}, Documents: []store.Document{{URLID: u.ID, Index: true, Title: "page", Text: "lorem ipsum"}}}
		if link {
			b.Links = []store.Link{{FromID: u.ID, To: target.URL, Anchor: "walrus"}}
		}
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	inlinks := func() int {
		t.Helper()
		var n int
		if err := s.iconn.QueryRowContext(ctx, `SELECT inlinks FROM docs WHERE url_id = ?`, target.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	fetch(target, false)
	for _, u := range added[1 : 1+first] {
		fetch(u, true)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got := inlinks(); got != first {
		t.Fatalf("after the refresh the target's anchor text counts %d pages, want %d", got, first)
	}
	for i, u := range added[1+first:] {
		fetch(u, true)
		linking := first + i + 1
		// What the merge will decide, with the changes it will make: the links it would read.
		if linking < 2*first {
			if p := planOf(t, s, target.ID, linkChanges{adds: 1}); !p.bounded || p.inlinks != 0 {
				t.Errorf("with %d pages linking and one more to merge, the target's plan read its links (inlinks %d, bounded %v); its anchor text was written at %d, so it could not be due", linking-1, p.inlinks, p.bounded, first)
			}
		}
		if _, err := mergeAll(ctx, s); err != nil {
			t.Fatal(err)
		}
		want := first
		if linking == 2*first {
			want = linking
		}
		if got := inlinks(); got != want {
			t.Fatalf("with %d pages linking, the target's anchor text counts %d, want %d (store.AnchorsDue)", linking, got, want)
		}
	}
}

// planOf plans the entry of id as a merge that makes changes to its links does (planEntries),
// in a transaction of the index database that it rolls back.
func planOf(t *testing.T, s *Store, id int64, changes linkChanges) *plan {
	t.Helper()
	tx, err := s.iconn.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	plans, err := planEntries(context.Background(), tx, []int64{id}, false, map[int64]linkChanges{id: changes})
	if err != nil || plans[id] == nil {
		t.Fatalf("planEntries: %v, %v", plans, err)
	}
	return plans[id]
}
