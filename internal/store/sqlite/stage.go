package sqlite

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// stage records the batch's documents with their outgoing links in the staged table, one row per
// document, replacing an earlier staged copy. Rows are appended in commit order (seq), so staging
// writes sequential pages; only the small url_id index is written at random. Nothing of the search index is touched here: the
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
		_, err := s.stmts.stage.ExecContext(ctx, d.URLID, boolInt(d.Index), d.Title, cutUTF8(d.Text, store.MaxIndexedTextBytes),
			boolInt(d.NoSnippet), unix(d.UnavailableAfter), encodeLinks(links[d.URLID]))
		if err != nil {
			return fmt.Errorf("index: stage document %d: %w", d.URLID, err)
		}
	}
	return nil
}

// stagedLink is one link of a staged document.
type stagedLink struct {
	to     int64
	anchor string
}

// encodeLinks packs links as a varint count, then per link the target's ID (store.IDOf) as a
// varint and the anchor (cut at store.MaxAnchorBytes) as a length-prefixed string. Links with
// the same target and anchor are kept once.
func encodeLinks(links []store.Link) []byte {
	if len(links) == 0 {
		return nil
	}
	type key struct {
		to     int64
		anchor string
	}
	seen := make(map[key]bool, len(links))
	buf := make([]byte, 0, 16*len(links))
	buf = binary.AppendUvarint(buf, 0) // patched below
	n := 0
	for _, l := range links {
		k := key{store.IDOf(l.To), cutUTF8(l.Anchor, store.MaxAnchorBytes)}
		if seen[k] {
			continue
		}
		seen[k] = true
		n++
		buf = binary.AppendVarint(buf, k.to)
		buf = binary.AppendUvarint(buf, uint64(len(k.anchor)))
		buf = append(buf, k.anchor...)
	}
	return append(binary.AppendUvarint(nil, uint64(n)), buf[1:]...)
}

var errBadLinks = errors.New("staged links are corrupt")

// decodeLinks reverses encodeLinks.
func decodeLinks(b []byte) ([]stagedLink, error) {
	if len(b) == 0 {
		return nil, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errBadLinks
	}
	b = b[k:]
	out := make([]stagedLink, 0, n)
	for range n {
		to, k := binary.Varint(b)
		if k <= 0 {
			return nil, errBadLinks
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errBadLinks
		}
		b = b[k:]
		out = append(out, stagedLink{to: to, anchor: string(b[:l])})
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, errBadLinks
	}
	return out, nil
}
