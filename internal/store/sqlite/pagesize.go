package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

// pageSize is the page size, in bytes, of a database this package creates (issue 11 item 6: a
// smaller index). The search index's text table (fts_content) holds one row per entry of about
// 2 KB (a testweb page's text): with SQLite's default 4 KiB pages a page held one such row or
// two, and 43% of that table was empty space, whatever VACUUM did; FTS5's index blobs (about 4
// KB each) fitted 4 KiB pages badly too. At 100,000 testweb documents (BENCHMARKS.md, "Issue 11,
// branch search3"): 7,596 bytes per document with 4 KiB pages, 6,399 with 8 KiB (-16%), 6,038
// with 16 KiB (-21%); commits and the index refresh took no longer, searches the same CPU. 16
// KiB was not taken: the process's peak RSS grew by 220 MB. With 8 KiB pages the writer's page
// cache costs more memory per byte cached (the C allocator's overhead), so writerCacheKiB was
// halved with them: the peak RSS of a crawl is then below what it was.
const pageSize = 8 << 10

// crawlPageSize is the page size, in bytes, of a crawl database this package creates (issue 26).
// A crawl commit changes a row or two on each page it touches of urls_origin, urls and the
// unique index of URL IDs, and WAL mode writes each touched page whole, then copies it back at
// the checkpoint: at 1,000 × 200 with 8 KiB pages (and merges of mergeLinksRows) those three
// B-trees took 43% of the pages the crawl wrote (BENCHMARKS.md, "Issue 26: where the writes
// go"). With 4 KiB pages a commit touches about a third more pages, of half the bytes: the crawl
// wrote 15% fewer bytes. The staged documents' text is written in order, the same bytes either
// way. The index database keeps pageSize: 4 KiB pages saved it 2% of the bytes written.
const crawlPageSize = 4 << 10

// checkpointPageBytes is the page size in which Options.CheckpointPages counts (4 KiB: SQLite's
// default, which the constant was chosen for): the WAL threshold stays the same number of bytes
// whatever the database's page size.
const checkpointPageBytes = 4 << 10

// walLimitCheckpoints is the size, in checkpoint thresholds (Options.CheckpointPages), down to
// which a WAL file is truncated when it starts over (SQLite's journal_size_limit). A checkpoint
// copies back only the frames that no reader still needs, so while a long transaction reads
// (the index writer's merges read the crawl database) the WAL grows past the threshold, and
// SQLite keeps the file at its largest size else: the crawl database's WAL reached 247 MB at
// 1,000 origins × 50 pages, 7.5 thresholds (issue 26). Twice the threshold leaves the usual
// cycle (the threshold and a commit) untruncated.
const walLimitCheckpoints = 2

// tuneWriter sets, for the page size of conn's main database (at path), the writer
// connection's wal_autocheckpoint to checkpointPages pages of checkpointPageBytes, its WAL's
// size limit (walLimitCheckpoints), and its page cache of cacheKiB.
func tuneWriter(ctx context.Context, conn *sql.Conn, path string, checkpointPages, cacheKiB int) error {
	var ps int
	if err := conn.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&ps); err != nil {
		return fmt.Errorf("sqlite: open %s: page size: %w", path, err)
	}
	for _, q := range []string{
		`PRAGMA wal_autocheckpoint = ` + strconv.Itoa(max(checkpointPages*checkpointPageBytes/max(ps, 1), 1)),
		`PRAGMA journal_size_limit = ` + strconv.Itoa(walLimitCheckpoints*checkpointPages*checkpointPageBytes),
		`PRAGMA cache_size = -` + strconv.Itoa(cacheKiB),
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: open %s: %s: %w", path, q, err)
		}
	}
	return nil
}
