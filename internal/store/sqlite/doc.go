// Package sqlite is the embedded store of a crawl: three SQLite files (attach.go; modernc.org/sqlite,
// no cgo) in WAL mode, used by one crawl process at a time.
//
// Durability: commits use synchronous=NORMAL, which in WAL mode survives a crash of the process
// (kill -9) at any moment, losing nothing committed; a power loss may undo the last transactions
// since the previous checkpoint but never corrupts the file. That is the trade the crawl wants:
// an undone commit only means a few pages are fetched again. TestCrashKeepsWholeBatches checks the
// first half: a child process killed with SIGKILL mid-crawl loses no reported commit and leaves
// no partial one.
//
// Writes: every write transaction runs on one connection held for the Store's life (SQLite has
// one writer), one at a time; reads use a pool of read-only connections that WAL lets run beside
// the writer. A commit inserts its new URLs in multi-row statements and skips the insert of
// origins it knows exist; the WAL is checkpointed at Options.CheckpointPages.
//
// The layout that issue 26 parts 1-3 plan (locality keys, anchor text rebuilt in bulk, a head
// index) is in layout-plan.md: a proposal, not what this package does.
//
// Schema: one version (schema.go), made in one step by the first Open. The crawl database's
// header marks it (application_id, user_version); a store made by an earlier build, a newer one,
// or any other SQLite file is refused before anything is written. There are no migrations.
//
// One process: Open takes an exclusive advisory lock (flock) on PATH.lock and fails with an error
// wrapping store.ErrLocked while another process holds it. Leases are therefore always granted.
package sqlite
