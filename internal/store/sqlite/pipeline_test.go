package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Issue 8 (indexing "in large batches", trailing the crawl by a bounded lag): IndexPending goes
// through the stage in commit order, chunk after chunk (each about pendingBytes of text), the
// next chunk's text written while the last one's transaction ends; it indexes exactly as many
// documents as it was asked, each once, and the rest stay staged for the next call.
func TestIndexPendingGoesThroughTheStageChunkByChunk(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	const n, perDoc = 14, 200 << 10 // about 6 documents a chunk: 3 chunks
	us := addURLs(t, s, n)
	text := func(i int) string {
		return "walrus " + strings.Repeat(fmt.Sprintf("filler%c ", 'a'+i), perDoc/8)
	}
	commitFetched(t, s, us, text, true)
	check := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %d, want %d", what, got, want)
		}
	}
	got, err := s.IndexPending(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	check("IndexPending(10)", got, 10)
	lag, err := s.IndexLag(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("staged after IndexPending(10)", lag, n-10)
	check("searchable after IndexPending(10)", indexState(t, s).walrus, 10)
	if got, err = s.IndexPending(ctx, 100); err != nil {
		t.Fatal(err)
	}
	check("IndexPending(100), the rest", got, n-10)
	if lag, err = s.IndexLag(ctx); err != nil {
		t.Fatal(err)
	}
	check("staged at the end", lag, 0)
	st := indexState(t, s)
	check("searchable at the end", st.walrus, n)
	check("fts rows at the end", st.fts, n)
	for i, u := range us { // each document's own text, in its own row
		var id int64
		word := fmt.Sprintf("filler%c", 'a'+i)
		if err := s.read.QueryRowContext(ctx, `SELECT rowid FROM fts WHERE fts MATCH ?`, word).Scan(&id); err != nil || id != u.ID {
			t.Errorf("the fts row holding %q: %d, %v; want %d", word, id, err, u.ID)
		}
	}
}
