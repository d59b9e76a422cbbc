package sqlite

import (
	"context"
	"fmt"
	"strconv"
)

// The crawl database's staged text (stage.go) is written once and deleted once it is indexed;
// its pages go to the file's freelist, and the documents staged next reuse them. A backlog the
// indexer took long to catch up with leaves the file at the size of its largest backlog: at
// 1,000,000 documents committed before they were indexed (indexbench), 4,083 bytes per document
// of free pages, nearly half the store (issue 26, bytes per document). So the crawl database is
// made with auto_vacuum=INCREMENTAL (dsn), and RefreshIndex, which leaves nothing staged, gives
// its free pages back (reclaim). IndexPending does not: a crawl's backlog comes again, and its
// pages would be given back only to be taken again.
//
// SQLite moves the pages at the end of the file into the free ones and truncates the file at the
// next checkpoint. Each chunk is a transaction of the crawl's writer: a kill -9 undoes at most
// the chunk under way, and the next RefreshIndex does it again.

// reclaimMinPages is the least count of free pages of the crawl database that RefreshIndex gives
// back: 8 MiB. Fewer are a backlog's worth that the next documents staged reuse.
const reclaimMinPages = 8 << 20 / crawlPageSize

// reclaimChunkPages is how many free pages one transaction of the crawl's writer gives back
// (16 MiB): a commit of the crawl waits for one chunk at most.
const reclaimChunkPages = 16 << 20 / crawlPageSize

// reclaim gives all the crawl database's free pages back to the file system if there are at
// least reclaimMinPages of them, reclaimChunkPages per transaction (inTx). The caller holds
// indexMu, so that nothing is staged or unstaged meanwhile by the indexer (lock order: indexMu,
// then writeMu).
func (s *Store) reclaim(ctx context.Context) error {
	started := false
	for {
		var free int
		err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
			if err := tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
				return err
			}
			if free == 0 || !started && free < reclaimMinPages {
				return nil
			}
			_, err := tx.ExecContext(ctx, `PRAGMA incremental_vacuum(`+strconv.Itoa(reclaimChunkPages)+`)`)
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: give back the crawl database's free pages: %w", err)
		}
		if free == 0 || !started && free < reclaimMinPages {
			return nil
		}
		started = true
	}
}
