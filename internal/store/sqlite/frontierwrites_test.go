package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 (a store whose cost per page does not grow with the crawl), step 1 of layout-plan.md:
// a fetch must not move its URL's entry across the frontier index. A crawl fetches an origin's
// URLs in (depth, seq) order, about the order they were found in, and finds new ones as it goes;
// each commit's fetched entries must leave the index where the next ones arrive, so that a
// commit rewrites a page or two of the origin's index, however many URLs the origin has. The
// old key (origin, next_at, id) moved each fetched entry to a random place among the origin's
// fetched ones: a page per fetch, growing with the origin's URLs.
func TestFetchesRewriteFewFrontierPages(t *testing.T) {
	const (
		queued   = 4000 // URLs queued at first: many pages of the index
		perBatch = 8    // fetches per commit
		found    = 2    // new URLs each commit finds
		commits  = 100
		maxPages = 3.0 // frontier index pages a commit may change, on average
	)
	ctx := context.Background()
	s, _ := openTemp(t)
	const origin = "http://a.test"
	var news []store.NewURL
	for i := range queued {
		n := newURL(fmt.Sprintf("%s/p/%d", origin, i), origin)
		n.Depth, n.DiscoveredAt = 1, t0.Add(time.Duration(i)*time.Millisecond)
		news = append(news, n)
	}
	if _, err := s.Commit(ctx, store.Batch{New: news}); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Hour)
	changed := 0
	for c := range commits {
		due, err := s.DueURLs(ctx, origin, now, perBatch)
		if err != nil || len(due) != perBatch {
			t.Fatalf("commit %d: DueURLs = %d URLs, %v", c, len(due), err)
		}
		var b store.Batch
		for _, u := range due {
			u.State, u.Status, u.FetchedAt, u.NextAt = store.StateFetched, 200, now, time.Time{}
			b.Updates = append(b.Updates, u)
		}
		for i := range found {
			n := newURL(fmt.Sprintf("%s/new/%d/%d", origin, c, i), origin)
			n.Depth, n.DiscoveredAt = 2, now
			b.New = append(b.New, n)
		}
		before := frontierPages(t, s)
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
		changed += changedPages(before, frontierPages(t, s))
		now = now.Add(time.Second)
	}
	got := float64(changed) / commits
	t.Logf("%.2f pages of the frontier index changed per commit", got)
	if got > maxPages {
		t.Errorf("a commit of %d fetches and %d new URLs changed %.1f pages of the frontier index on average, want at most %.1f", perBatch, found, got, maxPages)
	}
}

// frontierPages returns the content of each page of the frontier index, by page number.
func frontierPages(t *testing.T, s *Store) map[int64][]byte {
	t.Helper()
	out := btreePages(t, s.wconn, "urls_origin")
	if len(out) == 0 {
		t.Fatal("no pages of urls_origin")
	}
	return out
}

// changedPages counts the pages of after whose content differs from before's (or that before
// did not have).
func changedPages(before, after map[int64][]byte) int {
	n := 0
	for pg, data := range after {
		if !bytes.Equal(before[pg], data) {
			n++
		}
	}
	return n
}

// btreePages returns the content of each page of the B-tree name in conn's main database, by
// page number (dbstat and sqlite_dbpage).
func btreePages(t *testing.T, conn *sql.Conn, name string) map[int64][]byte {
	t.Helper()
	rows, err := conn.QueryContext(t.Context(), `SELECT p.pgno, p.data FROM dbstat('main') AS d
		JOIN sqlite_dbpage('main') AS p ON p.pgno = d.pageno WHERE d.name = ?`, name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64][]byte{}
	for rows.Next() {
		var pg int64
		var data []byte
		if err := rows.Scan(&pg, &data); err != nil {
			t.Fatal(err)
		}
		out[pg] = data
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
