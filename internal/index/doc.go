// Package index is Fractle's side of the spec: what the crawl learned, made searchable.
//
// Two kinds of entries are searchable (seed 001, "Crawling vs Indexing"):
//   - documents: pages fetched with a 2xx answer that robot tags let us index (no noindex, no
//     none, unavailable_after not passed), searchable by title, text, the anchor text other
//     pages use for them, and the words of their URL;
//   - link-only entries: URLs known only from other pages' links (never fetched, blocked by
//     robots.txt, out of scope, or not crawled yet), searchable by that anchor text and their
//     URL words, and marked as such with the reason they were not crawled.
//
// A search that matches nothing because a word is misspelt is searched again with the word
// corrected from the index's own vocabulary, and says so (spell.go, issue 32).
//
// A page that robot tags keep out of the index (rule 27) is removed entirely, even as a link-only
// entry, and comes back when a later fetch finds the tag gone. The package holds the types every
// storage technology shares; the SQLite store implements Searcher with FTS5 and bm25.
package index
