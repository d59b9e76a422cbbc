package postgres_test

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page): the store's ANALYZE of docs spent nearly all its time
// on the tsvector column's statistics (140 ms of 143 for 12,000 documents: every sampled
// tsvector read from TOAST and its lexemes counted), which no statement of the store plans
// with (a search reads the GIN index whatever a word's frequency: enable_seqscan off). After
// RefreshIndex has analyzed docs, its url_id has statistics and its tsv none.
func TestDocsAnalyzedWithoutTSVectorStatistics(t *testing.T) {
	stats := analyzedColumns(t, "docs")
	if !slices.Contains(stats, "url_id") {
		t.Fatalf("docs.url_id has no statistics after RefreshIndex (%v): docs was never analyzed", stats)
	}
	if slices.Contains(stats, "tsv") {
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
	stats := analyzedColumns(t, "urls")
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

// analyzedColumns stages 2,000 linked documents in a new store, runs RefreshIndex (whose upkeep
// analyzes the tables it grew) and returns the columns of table that have planner statistics.
func analyzedColumns(t *testing.T, table string) []string {
	t.Helper()
	s := pgtest.Open(t)
	defer s.Close()
	stageLinkedDocs(t, s, 2000)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	return statsColumns(t, s, table)
}

// statsColumns returns the columns of s's table that pg_stats has statistics for.
func statsColumns(t *testing.T, s *postgres.Store, table string) []string {
	t.Helper()
	rows, err := schemaConn(t, s).Query(t.Context(), `SELECT attname FROM pg_stats WHERE schemaname = $1 AND tablename = $2`, s.Schema(), table)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return stats
}
