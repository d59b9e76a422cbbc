package sqlite

import (
	"context"
	"errors"
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
// Two ways, the cheaper for the file: while the free pages are fewer than reclaimVacuumRatio
// times the live ones, incremental_vacuum moves the pages at the end of the file into the free
// ones, reclaimChunkPages per transaction of the crawl's writer, and the file is truncated at
// the next checkpoint; when the file is mostly free (a crawl's staged text was most of it), VACUUM
// copies the live pages to a new file instead. Either is a transaction of the crawl's writer: a
// kill -9 undoes at most the one under way, and the next RefreshIndex does it again.

// reclaimMinPages is the least count of free pages of the crawl database that RefreshIndex gives
// back: 8 MiB. Fewer are a backlog's worth that the next documents staged reuse.
const reclaimMinPages = 8 << 20 / crawlPageSize

// reclaimChunkPages is how many free pages one transaction of the crawl's writer gives back
// (16 MiB): a commit of the crawl waits for one chunk at most.
const reclaimChunkPages = 16 << 20 / crawlPageSize

// reclaimVacuumRatio is the least ratio of free to live pages at which reclaim copies the
// crawl database (VACUUM) rather than moving its pages: VACUUM costs in proportion to the live
// pages, incremental_vacuum to the free ones. A 100 × 200 crawl's file, 1,232 live pages and
// 12,682 free: VACUUM 57 ms, incremental_vacuum 354 ms (0.4 s of the crawl's 8.5 s).
const reclaimVacuumRatio = 2

// reclaim gives all the crawl database's free pages back to the file system if there are at
// least reclaimMinPages of them: by VACUUM when they are reclaimVacuumRatio times the live
// pages or more (vacuumCrawl), else reclaimChunkPages per transaction (inTx). The caller holds
// indexMu, so that nothing is staged or unstaged meanwhile by the indexer (lock order: indexMu,
// then writeMu).
func (s *Store) reclaim(ctx context.Context) error {
	var free, pages int
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		if err := tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages)
	})
	if err != nil {
		return fmt.Errorf("sqlite: give back the crawl database's free pages: %w", err)
	}
	if free < reclaimMinPages {
		return nil
	}
	if free >= reclaimVacuumRatio*(pages-free) {
		return s.vacuumCrawl(ctx)
	}
	for free > 0 {
		err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
			if _, err := tx.ExecContext(ctx, `PRAGMA incremental_vacuum(`+strconv.Itoa(reclaimChunkPages)+`)`); err != nil {
				return err
			}
			return tx.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&free)
		})
		if err != nil {
			return fmt.Errorf("sqlite: give back the crawl database's free pages: %w", err)
		}
	}
	return nil
}

// vacuumCrawl copies the crawl database's live pages into a new file (VACUUM), on the crawl's
// writer, under writeMu. VACUUM first copies them into a temporary database, which the writer's
// temp_store(MEMORY) (dsn) would hold in the C heap, outside the memory budget: it is put in a
// temporary file for the copy, and temp_store is MEMORY again after it, whether it failed or not.
func (s *Store) vacuumCrawl(ctx context.Context) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	exec := func(q string) error {
		if _, err := s.wconn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlite: give back the crawl database's free pages: %s: %w", q, err)
		}
		return nil
	}
	if err := exec(`PRAGMA temp_store = FILE`); err != nil {
		return err
	}
	return errors.Join(exec(`VACUUM`), exec(`PRAGMA temp_store = MEMORY`))
}
