package sqlite

import "strconv"

// MinPageCacheKiB is the smallest page cache a connection of a crawl's store is given, whatever
// Options.PageCacheBytes: SQLite works, slowly, with a few pages per connection.
const MinPageCacheKiB = 64

// pageCacheCost is what a page cache holds in the process per byte of its cache_size, at most
// (issue 29: at --memory 128MiB a crawl of 1,000 origins peaked 20-30 MiB over its budget, and
// 40-50 MiB of its RSS was SQLite's C heap against a page caches' share of 16 MiB). SQLite
// counts a cache in pages of pageSize, but each page also has its headers (about 300 bytes),
// and modernc.org/memory gives an allocation of up to 16 KiB a slot of the next power of two:
// an 8 KiB page takes a 16 KiB slot. Measured (TestPageCacheCostBoundsItsRSS): a full 16 MiB
// cache held 1.6-1.75 times that in RSS. pageCachesFor charges each cache at this cost.
const pageCacheCost = 2

// pageCaches are the page caches of a writable store's connections, in KiB: the crawl writer's,
// the index writer's (for the index database and the crawl database it reads), and each read
// connection's (readerCaches, with the crawl database's); and how much
// more the crawl writer may hold of one commit's changed pages before it spills them
// (writerSpill, spillPragma).
type pageCaches struct {
	writer, index, indexCrawl, writerSpill int
	reader                                 readerCaches
}

// defaultPageCaches are the caches a writable store's connections are given when
// Options.PageCacheBytes allows them (issue 8 chose each).
var defaultPageCaches = pageCaches{
	writer: writerCacheKiB, index: indexCacheKiB, indexCrawl: crawlCacheKiB,
	writerSpill: writerSpillKiB,
	reader:      readerCaches{index: crawlReaderIndexCacheKiB, crawl: readerCrawlCacheKiB},
}

// total is what every cache holds at most with readers read connections open, in KiB.
func (p pageCaches) total(readers int) int {
	return p.writer + p.writerSpill + p.index + p.indexCrawl + readers*(p.reader.index+p.reader.crawl)
}

// pageCachesFor divides budget bytes among the page caches of a store with readers read
// connections (issue 29, the page caches' share of --memory), each cache charged at
// pageCacheCost times its size: the defaults when they fit, else each default scaled down by
// the same factor, none under MinPageCacheKiB. budget <= 0 means the defaults. The sum of the
// sizes times pageCacheCost stays within budget whenever budget allows every cache its minimum.
func pageCachesFor(budget int64, readers int) pageCaches {
	p := defaultPageCaches
	full := int64(p.total(readers))
	kib := budget / pageCacheCost >> 10
	if budget <= 0 || kib >= full {
		return p
	}
	scale := func(n int) int { return max(int(int64(n)*kib/full), MinPageCacheKiB) }
	return pageCaches{
		writer: scale(p.writer), index: scale(p.index), indexCrawl: scale(p.indexCrawl),
		writerSpill: scale(p.writerSpill),
		reader:      readerCaches{index: scale(p.reader.index), crawl: scale(p.reader.crawl)},
	}
}

// cacheSizePragma sets the page cache of schema's database on a connection to kib KiB.
func cacheSizePragma(schema string, kib int) string {
	return `PRAGMA ` + schema + `.cache_size = -` + strconv.Itoa(kib)
}

// spillPragma lets a connection's main database (of pageSize pages) hold up to kib KiB of pages
// (a page less for an even number) before it spills changed ones to the WAL in the middle of a
// transaction (cache_spill, in pages: SQLite spills only once the cache holds more than both it
// and cache_size). The count is odd: SQLite also reads it as a boolean, its low byte, and a
// multiple of 256 (6,144 pages, 24 MiB of 4 KiB) turned spilling off altogether, leaving the
// cache to grow with every changed page.
func spillPragma(kib, pageSize int) string {
	n := max(kib<<10/pageSize, 1)
	if n%2 == 0 {
		n-- // at least 2: stays at least 1
	}
	return `PRAGMA main.cache_spill = ` + strconv.Itoa(n)
}
