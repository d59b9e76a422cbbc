package sqlite

import (
	"context"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// stage records the batch's documents with their outgoing links and response headers in the
// staged table, one row per document, replacing an earlier staged copy. Rows are appended in
// commit order (seq), so staging writes sequential pages; only the small url_id index is written
// at random (the fold moves the headers to folded, a chunk at a time). Nothing of the search index is touched here: the
// crawl's commit stays a handful of row writes per page, and IndexPending folds staged rows into
// the index later, in large batches.
func (s *Store) stage(ctx context.Context, b store.Batch) error {
	links := make(map[int64][]store.Link, len(b.Documents))
	docs := make(map[int64]bool, len(b.Documents))
	for _, d := range b.Documents {
		docs[d.URLID] = true
	}
	for _, l := range b.Links {
		if !docs[l.FromID] {
			return fmt.Errorf("index: link from %d to %s: %w", l.FromID, l.To, store.ErrLinkWithoutDocument)
		}
		links[l.FromID] = append(links[l.FromID], l)
	}
	for _, d := range b.Documents {
		_, err := s.stmts.stage.ExecContext(ctx, d.URLID, boolInt(d.Index), d.Title, store.CutUTF8(d.Text, store.MaxIndexedTextBytes),
			boolInt(d.NoSnippet), unix(d.UnavailableAfter), store.EncodeLinks(links[d.URLID], nil),
			store.CutUTF8(d.Headings, store.MaxIndexedHeadingsBytes), nonNil(store.EncodeHeader(d.Header)))
		if err != nil {
			return fmt.Errorf("index: stage document %d: %w", d.URLID, err)
		}
	}
	return nil
}

// nonNil makes a nil slice empty: the column is NOT NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
