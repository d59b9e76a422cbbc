// Package sqlite is the embedded store of a crawl: two SQLite files (attach.go; modernc.org/sqlite,
// no cgo) in WAL mode, used by one crawl process at a time.
//
// # Layout
//
// Tables, by file, with their keys and their one writer:
//
//   - crawl.db, written by the crawl's commits (Commit: one transaction per batch), and by the
//     indexer only to unstage what it indexed. meta (key); origins (key); urls (rowid seq in
//     discovery order; id = store.IDOf, unique; urls_origin (origin, next_at), the rowid seq
//     after them, for the frontier, see crawlSchema); staged (rowid seq in commit order; url_id
//     unique): fetched documents with their encoded links and header, waiting for the indexer.
//   - crawl.index.db, written by the indexer (indexTxLocked). folded (rowid seq in fold order; url_id
//     unique): each folded page's header and links as the fold last kept them, a page fetched
//     again moving to the end. link_log (rowid seq): what changed in the links of the pages
//     folded since the last merge, appended (linklog.go). links (to_id, from_id, anchor),
//     without rowid: the link graph by target, written only by the merge, in key order. docs
//     (rowid num, the entry's number, given in index order: nums.go; url_id unique): one row
//     per index entry, with its inlinks as its anchor row was last written. fts_anchors (FTS5,
//     contentless, rowid num): each entry's anchor text's terms, not its text. dirty (url_id,
//     lo, hi): the entries whose anchor row lags their links (a merge found them not due, with
//     bounds of their linking pages, or a queued URL that is no entry yet), written by the merge
//     in key order, emptied by RefreshIndex. fts and head (FTS5, rowid num): each entry's own
//     text, and the head index's row of it (fts.go, head.go), written by the fold, and a
//     link-only entry's URL words by the merge.
//
// URL IDs are 63-bit xxHash values of the canonical URL: the crawler names URLs and dedupes
// links without asking the store, and two of n URLs collide with odds about n²/2⁶⁴ (5.4·10⁻⁴ at
// 100,000,000 URLs). A table keyed by them takes a write at a random page per row, so the
// tables the fold fills are keyed by an order of their own (folded by fold order, docs, fts and
// fts_anchors by entry number, link_log by seq), with the URL ID in a unique index of small
// entries; links is keyed by target and written only in sorted merges.
//
// The write path of a page: Commit updates its urls row, inserts the new URLs it found, and stages
// its document (one transaction on crawl.db). The fold (IndexPending: index.go) numbers the
// page's entry, writes its docs and folded rows, appends its link changes to link_log and writes
// its fts and head rows, in one transaction on the index file, then unstages it (crawl file). The
// merge (once link_log holds
// mergeLinksRows rows and as many as links, and of the whole log in RefreshIndex; never on a
// timer) applies the whole log to links sorted by target, in passes over ranges of targets
// (linklog.go), then runs a generation over the targets in the same order (anchors.go; a document
// target is planned from docs and dirty alone, other targets from their urls rows): an entry's
// docs and fts_anchors rows are rewritten when it has no anchor row yet or its inlinks reached
// twice or half those of its last rewrite, so that over a crawl each is written O(log inlinks)
// times; link-only entries of URLs linked to and never fetched are made, entries nothing keeps
// removed; the other targets go to dirty. RefreshIndex folds the staged backlog, merges with every
// target left in dirty, then rewrites every dirty entry exactly, its plans read on a reader
// connection a few chunks ahead of the writer (rewriteDirty). Having left nothing staged,
// RefreshIndex gives the crawl file's free pages (the staged text's) back to the file system
// (reclaim.go: auto_vacuum=INCREMENTAL).
//
// # Crashes and replay
//
// Durability: commits use synchronous=NORMAL, which in WAL mode survives a crash of the process
// (kill -9) at any moment, losing nothing committed; a power loss may undo the last transactions
// since the previous checkpoint but never corrupts the file. That is the trade the crawl wants:
// an undone commit only means a few pages are fetched again. A crawl commit is whole or absent
// (TestCrashKeepsWholeBatches kills a committing child process with SIGKILL).
//
// The two files commit separately, in one order per indexer step: the index, then the crawl
// file's record of what was indexed. A crash between them leaves work that is done again, and
// every step is idempotent: documents still staged are folded again (their link changes are
// computed against folded as the last committed fold left it, so nothing is logged twice); a
// merge's links, rewritten entries, dirty marks and the removal of its link_log rows are one
// transaction, so a crash leaves the log to merge again (a rewrite reads links as they are, so
// it is the same), and the spill files of its log beside the store (logspill.go), scratch that
// the next merge removes; an entry's number and all its rows are written in one transaction, so
// a number an uncommitted transaction gave is simply given again. TestKillDuringMergeAndRefresh
// kills a process with SIGKILL inside merges and refreshes and checks that a refresh after it
// leaves the index one without the crash leaves; replay_test.go loses each commit in turn.
//
// Writes: every write transaction of a file runs on the one connection that writes it (SQLite
// has one writer per file), one at a time; reads use a pool of read-only connections that WAL
// lets run beside the writers. A commit inserts its new URLs in multi-row statements and skips
// the insert of origins it knows exist. The crawl database has 4 KiB pages (crawlPageSize: its
// commits change a row or two on each page they touch), the index database 8 KiB (pageSize:
// FTS5's rows and blobs fill them). The crawl writer holds a commit's changed pages up
// to writerSpillKiB beyond its cache before it spills them to the WAL (cache_spill): a group
// commit at 1,000 origins changes more pages than the cache holds. The WAL is checkpointed at
// Options.CheckpointPages, and cut back to walLimitCheckpoints thresholds when it starts over
// after a long reader let it grow.
// Close leaves no WAL: the crawl's writer closes after the index writer, whose read-only
// attachment of the crawl database cannot copy that WAL back.
//
// Schema: one version (schema.go), made in one step by the first Open. The crawl database's
// header marks it (application_id, user_version); a store made by an earlier build, a newer one,
// or any other SQLite file is refused before anything is written. There are no migrations.
//
// One process: Open takes an exclusive advisory lock (flock) on PATH.lock and fails with an error
// wrapping store.ErrLocked while another process holds it. Leases are therefore always granted.
package sqlite
