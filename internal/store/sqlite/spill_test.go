package sqlite

import (
	"context"
	"fmt"
	"testing"

	"modernc.org/sqlite"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 (what grows with the crawl): at 1,000 origins a group commit changes more pages of
// the crawl database than the writer's 8 MiB cache holds, and SQLite wrote them to the WAL in
// the middle of the commit (a spill), re-reading the WAL to fix its checksums when the commit
// changed a spilled page again: 36 µs of CPU per page fetched at 1,000 × 200, none at
// 100 × 200. A commit whose changed pages fit in writerCacheKiB + writerSpillKiB must not spill;
// and the writer's cache_spill must read back as the threshold set (spillPragma: a count that
// SQLite's boolean reading takes for off would let a commit's cache grow without bound).
func TestCommitOfManyPagesDoesNotSpill(t *testing.T) {
	const urls = 50_000 // about 9 MiB of changed 4 KiB pages (urls and its indexes), over the 8 MiB cache
	ctx := context.Background()
	s, _ := openTemp(t)

	var spill, pageSize int
	if err := s.wconn.QueryRowContext(ctx, `SELECT (SELECT cache_spill FROM pragma_cache_spill), (SELECT page_size FROM pragma_page_size)`).Scan(&spill, &pageSize); err != nil {
		t.Fatal(err)
	}
	if want := (writerCacheKiB + writerSpillKiB) << 10 / pageSize; spill < want-1 || spill > want {
		t.Errorf("the crawl writer's cache_spill = %d pages, want %d (or one less)", spill, want)
	}

	var b store.Batch
	for i := range urls {
		origin := fmt.Sprintf("http://o%d.test", i%1000)
		b.New = append(b.New, newURL(fmt.Sprintf("%s/page/with/a/longer/path/%d", origin, i), origin))
	}
	spills(t, s, true)
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	var changed int
	if err := s.wconn.QueryRowContext(ctx, `SELECT COUNT(*) FROM dbstat('main')`).Scan(&changed); err != nil {
		t.Fatal(err)
	}
	if limit := writerCacheKiB << 10 / pageSize; changed < limit {
		t.Fatalf("the commit made a database of %d pages, no more than the cache's %d: it tests nothing", changed, limit)
	}
	if n := spills(t, s, false); n != 0 {
		t.Errorf("a commit of %d new URLs (a database of %d pages of %d bytes) spilled %d pages to the WAL before it committed", urls, changed, pageSize, n)
	}
}

// spills reads how many pages the crawl writer spilled to its WAL in the middle of a
// transaction (SQLITE_DBSTATUS_CACHE_SPILL), and zeroes the count with reset.
func spills(t *testing.T, s *Store, reset bool) int {
	t.Helper()
	var n int
	err := s.wconn.Raw(func(dc any) error {
		st, ok := dc.(sqlite.DBStatus)
		if !ok {
			return fmt.Errorf("driver connection %T has no DBStatus", dc)
		}
		cur, _, err := st.Status(sqlite.DBStatusCacheSpill, reset)
		n = cur
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
