// Package store defines what a crawl remembers and the interface every storage technology
// implements: the embedded SQLite store (store/sqlite) by default and PostgreSQL (store/postgres)
// for a crawl shared by several machines.
//
// The store is the crawl's truth. Everything the crawler decides (each URL's state and the rule
// behind it, each origin's robots.txt decision, pauses) is written here before the crawler acts on
// it, so that a crawl killed at any moment resumes from the store losing nothing: a URL is marked
// fetched in the same transaction that records the URLs its page linked to.
package store
