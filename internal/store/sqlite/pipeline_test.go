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
	for i, u := range us { // each document's own text, in its own row, under the entry's number
		var id int64
		word := fmt.Sprintf("filler%c", 'a'+i)
		if err := s.read.QueryRowContext(ctx, `SELECT docs.url_id FROM fts JOIN docs ON docs.num = fts.rowid WHERE fts MATCH ?`, word).Scan(&id); err != nil || id != u.ID {
			t.Errorf("the fts row holding %q: %d, %v; want %d", word, id, err, u.ID)
		}
	}
}

// Issue 8 (indexing "in large batches"; 1,000,000 pages): while the indexer trails the crawl by
// behindDocs documents or more, IndexPending reads chunks as large as the refresh's (foldBytes),
// so that each commit's pages, spread over the index by hashed IDs, are written for more
// documents; while it keeps up, the smaller pendingBytes bound the crawl's memory. At 1,000,000
// pages, an indexer that wrote its backlog only in chunks of pendingBytes (it no longer refreshed
// when 50,000 documents waited, which writes them in chunks of foldBytes) took 1,614 s; with
// these larger chunks, 1,434 s the same day.
func TestIndexPendingTakesLargerChunksWhenBehind(t *testing.T) {
	for _, c := range []struct{ lag, want int }{
		{0, pendingBytes}, {behindDocs - 1, pendingBytes}, {behindDocs, foldBytes}, {100 * behindDocs, foldBytes},
	} {
		if got := pendingChunkBytes(c.lag); got != c.want {
			t.Errorf("pendingChunkBytes(%d) = %d, want %d", c.lag, got, c.want)
		}
	}
	if behindDocs <= indexChunk || pendingBytes >= foldBytes {
		t.Errorf("behindDocs %d, pendingBytes %d, foldBytes %d: the larger chunks must be for a backlog of several chunks", behindDocs, pendingBytes, foldBytes)
	}
}
