package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// stageLinkedDocs commits n fetched documents of about 8 KB, each linking to 10 of the others.
func stageLinkedDocs(t *testing.T, s *postgres.Store, n int) {
	t.Helper()
	var seed store.Batch
	for i := range n {
		seed.New = append(seed.New, store.NewURL{URL: fmt.Sprintf("http://u%d.test/p/%d", i%50, i), Origin: fmt.Sprintf("http://u%d.test", i%50), State: store.StateQueued, DiscoveredAt: t0})
	}
	added, err := s.Commit(t.Context(), seed)
	if err != nil {
		t.Fatal(err)
	}
	var b store.Batch
	for i, u := range added {
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: fmt.Sprintf("page %d", i),
			Text: strings.Repeat(fmt.Sprintf("walrus tusk %d words of a page ", i), 250)})
		for k := 1; k <= 10; k++ {
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: added[(i+k)%len(added)].URL, Anchor: fmt.Sprintf("link %d", k)})
		}
	}
	if _, err := s.Commit(t.Context(), b); err != nil {
		t.Fatal(err)
	}
}

// schemaConn connects to s's schema.
func schemaConn(t *testing.T, s *postgres.Store) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if _, err := conn.Exec(t.Context(), `SET search_path = `+s.Schema()); err != nil {
		t.Fatal(err)
	}
	return conn
}

// Issue 31 part 4 (RefreshIndex at most 60 s per 100,000 documents): with autovacuum off, a
// table the crawl filled was never analyzed, and PostgreSQL planned the anchor generation's
// `to_id = ANY($1)` of 5,000 targets as a sequential scan of every link compared with every
// target. The store analyzes the tables it grew: after RefreshIndex of 2,000 documents and
// 20,000 links, links, urls and doc_text have the planner's statistics (pg_class.reltuples is -1 for a
// table never analyzed).
func TestRefreshIndexAnalyzesTheTablesItGrew(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	stageLinkedDocs(t, s, 2000)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	conn := schemaConn(t, s)
	for _, table := range []string{"links", "urls", "doc_text"} {
		var tuples float64
		if err := conn.QueryRow(t.Context(), `SELECT reltuples FROM pg_class WHERE oid = $1::regclass`, table).Scan(&tuples); err != nil {
			t.Fatal(err)
		}
		if tuples < 0 {
			t.Errorf("%s: reltuples %v after RefreshIndex: never analyzed", table, tuples)
		}
	}
}

// Issue 31 part 4 (server CPU per page): pglz compression of the documents' text and tsvectors
// was the largest single cost of the server's fold; the store writes the documents' text with lz4
// where the server has it.
func TestFoldCompressesWithLZ4(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	var lz4 bool
	if err := conn.QueryRow(t.Context(), `SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'`).Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	if !lz4 {
		t.Skip("this server has no lz4")
	}
	stageLinkedDocs(t, s, 20)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	rows, _ := conn.Query(t.Context(), `SELECT COALESCE(pg_column_compression(body), 'none') FROM doc_text`)
	methods, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(methods) != 20 {
		t.Fatalf("%d documents' text, want 20", len(methods))
	}
	for _, m := range methods {
		if m != "lz4" {
			t.Fatalf("compression of the folded values %v, want lz4 for all", methods)
		}
	}
}
