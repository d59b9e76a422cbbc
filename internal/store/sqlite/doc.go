// Package sqlite is the embedded store of a crawl: one SQLite file (modernc.org/sqlite, no cgo)
// in WAL mode, used by one crawl process at a time.
//
// Durability: commits use synchronous=NORMAL, which in WAL mode survives a crash of the process
// (kill -9) at any moment, losing nothing committed; a power loss may undo the last transactions
// since the previous checkpoint but never corrupts the file. That is the trade the crawl wants:
// an undone commit only means a few pages are fetched again.
//
// One process: Open takes an exclusive advisory lock (flock) on PATH.lock and fails with an error
// wrapping store.ErrLocked while another process holds it. Leases are therefore always granted.
package sqlite
