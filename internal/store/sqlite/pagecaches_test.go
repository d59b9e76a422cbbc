package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// cacheKiB reads the page cache of schema's database on conn, in KiB (cache_size is negative
// when it is a size).
func cacheKiB(t *testing.T, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, schema string) int {
	t.Helper()
	var n int
	if err := q.QueryRowContext(context.Background(), `PRAGMA `+schema+`.cache_size`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n >= 0 {
		t.Fatalf("%s.cache_size = %d pages; want a size in KiB (negative)", schema, n)
	}
	return -n
}

// issue 29 ("one memory budget": SQLite's page caches are a named share; a consumer never grows
// past it): with Options.PageCacheBytes, the caches of every connection of a crawl's store, the
// writers' and each reader's, add up to no more than the share; with 0, the defaults stand.
func TestPageCachesKeepToTheirShare(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		budget int64
	}{{"8MiB", 8 << 20}, {"16MiB", 16 << 20}, {"defaults", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{PageCacheBytes: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rconn, err := s.read.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer rconn.Close()
			writers := cacheKiB(t, s.wconn, "main") + cacheKiB(t, s.iconn, "main") + cacheKiB(t, s.iconn, crawlSchemaName) +
				cacheKiB(t, s.tconn, "main")
			reader := cacheKiB(t, rconn, "main") + cacheKiB(t, rconn, indexSchemaName) + cacheKiB(t, rconn, textSchemaName)
			total := int64(writers+DefaultReaders*reader) << 10
			if tc.budget == 0 {
				if want := int64(defaultPageCaches.total(DefaultReaders)) << 10; total != want {
					t.Errorf("page caches %d KiB with no budget, want the defaults' %d KiB", total>>10, want>>10)
				}
				return
			}
			if total > tc.budget {
				t.Errorf("page caches %d KiB (writers %d, each of %d readers %d), over the share of %d KiB",
					total>>10, writers, DefaultReaders, reader, tc.budget>>10)
			}
			if total < tc.budget/2 {
				t.Errorf("page caches %d KiB, under half the share of %d KiB: the share is wasted", total>>10, tc.budget>>10)
			}
		})
	}
}
