package postgres_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page at 200,000 pages): the indexes of the links table hold
// no anchor text, so that they stay a small part of shared_buffers as the crawl grows. Layout 3
// keyed links by (from_id, to_id, anchor): at 1,000 × 200 that key was the crawl's largest
// B-tree, and the fold's deletes by random from_ids read it back from the operating system page
// after page. After a page with linkIndexLinks links of long anchor text is folded, every index
// on links takes at most maxIndexBytesPerLink bytes per link, where one copy of the anchor text
// alone is longer.
func TestLinksIndexesHoldNoAnchorText(t *testing.T) {
	const (
		linkIndexLinks       = 1000
		anchorBytes          = 120
		maxIndexBytesPerLink = 64
	)
	s := pgtest.Open(t)
	defer s.Close()
	links := make([]store.Link, linkIndexLinks)
	for i := range links {
		links[i] = store.Link{To: fmt.Sprintf("http://b.test/p%d", i), Anchor: fmt.Sprintf("%04d %s", i, strings.Repeat("walrus ", anchorBytes/7))}
	}
	page(t, s, "http://a.test/", "Narwhal", "tusk", links...)
	refresh(t, s)
	conn := schemaConn(t, s)
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT COUNT(*) FROM links`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != linkIndexLinks {
		t.Fatalf("%d links stored, want %d", n, linkIndexLinks)
	}
	rows, err := conn.Query(t.Context(), `SELECT indexrelid::regclass::text, pg_relation_size(indexrelid)
		FROM pg_index WHERE indrelid = 'links'::regclass ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var name string
	var size int64
	indexes := 0
	for rows.Next() {
		if err := rows.Scan(&name, &size); err != nil {
			t.Fatal(err)
		}
		indexes++
		if per := size / linkIndexLinks; per > maxIndexBytesPerLink {
			t.Errorf("index %s: %d bytes for %d links, %d per link; want at most %d (no anchor text in the key)", name, size, linkIndexLinks, per, maxIndexBytesPerLink)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if indexes == 0 {
		t.Error("links has no index: the fold deletes by from_id, a generation reads by to_id")
	}
}
