package store

import (
	"context"
	"fmt"
)

// WalkPages is Reader.EachPage over a store's batch reads: batch(ctx, after) returns at most
// PageBatch pages after the cursor after, in a fixed order, with the cursor of its last page; a
// batch shorter than PageBatch is the last. fn is called outside batch, one page at a time; its
// error stops the walk and is returned as is.
func WalkPages(ctx context.Context, batch func(ctx context.Context, after int64) ([]Page, int64, error), fn func(Page) error) error {
	var after int64
	for {
		pages, last, err := batch(ctx, after)
		if err != nil {
			return err
		}
		for _, p := range pages {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(pages) < PageBatch {
			return nil
		}
		after = last
	}
}

// PageSet assembles one batch of pages from a store's rows, so that both stores decide alike
// which copy of a page's text and links is the newest: a staged (not yet indexed) document wins
// over the indexed one, and an unfolded staged document's links stand in for the links table's.
//
// Feed it in this order: Staged rows, then Indexed and Link rows, then ResolveStaged with the
// URLs of StagedTargets, then Header rows; Pages returns the result. Rows of URLs not in the set
// are a store bug and are ignored. A PageSet is not safe for concurrent use.
type PageSet struct {
	pages       []Page
	byID        map[int64]*Page
	staged      map[int64]bool // the staged copy is the newest
	fromStage   map[int64]bool // unfolded: its links are in the stage, not in the links table yet
	stagedLinks []StagedLink
	stagedFrom  []int64 // the page of each of stagedLinks
}

// NewPageSet starts a set of the pages of urls, in that order.
func NewPageSet(urls []URL) *PageSet {
	s := &PageSet{pages: make([]Page, len(urls)), byID: make(map[int64]*Page, len(urls)),
		staged: map[int64]bool{}, fromStage: map[int64]bool{}}
	for i, u := range urls {
		s.pages[i].URL = u
		s.byID[u.ID] = &s.pages[i]
	}
	return s
}

// IDs returns the set's URL IDs, in order.
func (s *PageSet) IDs() []int64 {
	ids := make([]int64, len(s.pages))
	for i := range s.pages {
		ids[i] = s.pages[i].URL.ID
	}
	return ids
}

// Staged takes a staged document's row: its text when it may be indexed, and its encoded links
// (EncodeLinks) unless it has been folded into the links table.
func (s *PageSet) Staged(id int64, index bool, title, body string, folded bool, links []byte) error {
	p := s.byID[id]
	if p == nil {
		return nil
	}
	s.staged[id] = true
	if index {
		p.Title, p.Text = title, body
	}
	if folded {
		return nil
	}
	l, err := DecodeLinks(links)
	if err != nil {
		return fmt.Errorf("page %d: %w", id, err)
	}
	s.stagedLinks = append(s.stagedLinks, l...)
	for range l {
		s.stagedFrom = append(s.stagedFrom, id)
	}
	s.fromStage[id] = true
	return nil
}

// Indexed takes an indexed document's title and text, unless a staged copy came first.
func (s *PageSet) Indexed(id int64, title, body string) {
	if p := s.byID[id]; p != nil && !s.staged[id] {
		p.Title, p.Text = title, body
	}
}

// Link takes a row of the links table, unless the page's links are still staged.
func (s *PageSet) Link(from int64, to, anchor string) {
	if p := s.byID[from]; p != nil && !s.fromStage[from] {
		p.Links = append(p.Links, PageLink{To: to, Anchor: anchor})
	}
}

// StagedTargets returns the URL IDs the staged links point to (with repeats), whose URLs
// ResolveStaged needs; nil when there are none.
func (s *PageSet) StagedTargets() []int64 {
	if len(s.stagedLinks) == 0 {
		return nil
	}
	ids := make([]int64, len(s.stagedLinks))
	for i, l := range s.stagedLinks {
		ids[i] = l.To
	}
	return ids
}

// ResolveStaged adds the staged links to their pages, with their targets' URLs from urls.
func (s *PageSet) ResolveStaged(urls map[int64]string) {
	for i, l := range s.stagedLinks {
		p := s.byID[s.stagedFrom[i]]
		p.Links = append(p.Links, PageLink{To: urls[l.To], Anchor: l.Anchor})
	}
}

// Header takes a page's encoded header (EncodeHeader).
func (s *PageSet) Header(id int64, h []byte) {
	if p := s.byID[id]; p != nil {
		p.Header = DecodeHeader(h)
	}
}

// Pages returns the assembled pages, each put in Page's documented form by FinishPage.
func (s *PageSet) Pages() []Page {
	for i := range s.pages {
		FinishPage(&s.pages[i])
	}
	return s.pages
}
