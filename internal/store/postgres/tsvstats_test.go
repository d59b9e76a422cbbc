package postgres_test

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page): the store's ANALYZE of docs spent nearly all its time
// on the tsvector column's statistics (140 ms of 143 for 12,000 documents: every sampled
// tsvector read from TOAST and its lexemes counted), which no statement of the store plans
// with (a search reads the GIN index whatever a word's frequency: enable_seqscan off). After
// RefreshIndex has analyzed docs, its url_id has statistics and its tsv none.
func TestDocsAnalyzedWithoutTSVectorStatistics(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	stageLinkedDocs(t, s, 2000)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	conn := schemaConn(t, s)
	stats := map[string]bool{}
	rows, err := conn.Query(t.Context(), `SELECT attname FROM pg_stats WHERE schemaname = $1 AND tablename = 'docs'`, s.Schema())
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		stats[a] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !stats["url_id"] {
		t.Fatalf("docs.url_id has no statistics after RefreshIndex (%v): docs was never analyzed", stats)
	}
	if stats["tsv"] {
		t.Errorf("docs.tsv has statistics after RefreshIndex, want none (attstattarget 0)")
	}
}

// Issue 31 part 4 (server CPU per page): the store's ANALYZE of urls spent two thirds of its time
// on columns no statement of the store filters, joins or groups on (100 ms against 36 ms for
// 21,268 URLs of a crawl), the URL itself the most. After RefreshIndex has analyzed urls, the
// columns statements look up by (id, seq, origin, next_at, state, kind, depth, hops, fetched_at)
// have statistics, and url, reason, content_type, location, canonical, etag, last_modified and
// the WARC record's file and ID none.
func TestURLsAnalyzedOnTheColumnsLookedUpBy(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	stageLinkedDocs(t, s, 2000)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	conn := schemaConn(t, s)
	rows, err := conn.Query(t.Context(), `SELECT attname FROM pg_stats WHERE schemaname = $1 AND tablename = 'urls'`, s.Schema())
	if err != nil {
		t.Fatal(err)
	}
	stats, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"id", "seq", "origin", "next_at", "state", "kind", "depth", "hops", "fetched_at"} {
		if !slices.Contains(stats, c) {
			t.Errorf("urls.%s has no statistics after RefreshIndex (%v)", c, stats)
		}
	}
	for _, c := range []string{"url", "reason", "content_type", "location", "canonical", "etag", "last_modified", "warc_file", "warc_response_id"} {
		if slices.Contains(stats, c) {
			t.Errorf("urls.%s has statistics after RefreshIndex, want none (attstattarget 0)", c)
		}
	}
}
