package store

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// export --documents (issue 10 item 5) shows a page's newest copy: a staged document's text and
// links win over the indexed ones, and a folded one's links are the links table's.
func TestPageSetNewestCopyWins(t *testing.T) {
	ps := NewPageSet([]URL{{ID: 1}, {ID: 2}, {ID: 3}})
	if got := ps.IDs(); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("IDs = %v", got)
	}
	staged := EncodeLinks([]Link{{To: "http://new.test/", Anchor: "staged"}}, nil)
	newID := IDOf("http://new.test/")
	if err := ps.Staged(1, true, "staged title", "staged text", false, staged); err != nil {
		t.Fatal(err)
	}
	if err := ps.Staged(2, false, "hidden", "hidden", true, nil); err != nil {
		t.Fatal(err)
	}
	ps.Indexed(1, "old title", "old text")
	ps.Indexed(3, "indexed title", "indexed text")
	ps.Link(1, "http://old.test/", "old")
	ps.Link(2, "http://b.test/", "b")
	if got := ps.StagedTargets(); !slices.Equal(got, []int64{newID}) {
		t.Fatalf("StagedTargets = %v", got)
	}
	ps.ResolveStaged(map[int64]string{newID: "http://new.test/"})
	ps.Header(3, EncodeHeader(map[string][]string{"Etag": {`"x"`}}))
	pages := ps.Pages()
	if p := pages[0]; p.Title != "staged title" || !slices.Equal(p.Links, []PageLink{{To: "http://new.test/", Anchor: "staged"}}) {
		t.Errorf("page 1 (staged, unfolded) = %q %v", p.Title, p.Links)
	}
	if p := pages[1]; p.Title != "" || p.Text != "" || !slices.Equal(p.Links, []PageLink{{To: "http://b.test/", Anchor: "b"}}) {
		t.Errorf("page 2 (staged, not indexable, folded) = %q %q %v", p.Title, p.Text, p.Links)
	}
	if p := pages[2]; p.Title != "indexed title" || p.Header.Get("Etag") != `"x"` {
		t.Errorf("page 3 (indexed) = %q %v", p.Title, p.Header)
	}
	if pages[0].Header == nil {
		t.Error("a page without a kept header has a nil one")
	}
}

// WalkPages reads batch after batch until one is short, and stops at fn's error.
func TestWalkPagesBatches(t *testing.T) {
	var afters []int64
	batch := func(_ context.Context, after int64) ([]Page, int64, error) {
		afters = append(afters, after)
		n := PageBatch
		if after > 0 {
			n = 1
		}
		return make([]Page, n), after + int64(n), nil
	}
	seen := 0
	if err := WalkPages(context.Background(), batch, func(Page) error { seen++; return nil }); err != nil || seen != PageBatch+1 || !slices.Equal(afters, []int64{0, PageBatch}) {
		t.Fatalf("WalkPages: %v, %d pages, cursors %v", err, seen, afters)
	}
	stop := errors.New("stop")
	if err := WalkPages(context.Background(), batch, func(Page) error { return stop }); err != stop {
		t.Fatalf("fn's error = %v", err)
	}
}
