// Package postgres is the networked store of a crawl: one PostgreSQL schema (pgx/v5, pgxpool)
// shared by any number of crawl processes on any number of machines, implementing every role of
// store.Store and store.Shared.
//
// Schema: one version (schema.go), made at Open in one transaction under pg_advisory_xact_lock,
// so processes starting at once take turns and only the first one makes it; a crawl made by an
// earlier build is refused before anything is written. Each crawl lives in a schema of its own
// (Options.Schema), created if missing.
//
// Writes: Commit is one transaction of a handful of statements whatever the batch's size. Rows
// travel as arrays (unnest), so new URLs are one multi-row INSERT ... ON CONFLICT (id) DO NOTHING
// and de-duplication is the primary key on store.IDOf; updates, origin records and staged
// documents are one statement each. Every statement takes its rows in key order, so concurrent
// commits do not deadlock; a transaction PostgreSQL still aborts as a deadlock or serialization
// victim is run again (maxTxAttempts).
//
// Leases (leases.go) exclude other owners, expire, are renewed (LeaseOrigins renews everything the
// owner holds; RenewOrigins renews given keys and reports the lost ones) and are taken over once
// expired; LeaseOrigins grants no origin paused past its until (issue 31 part 3); NextDue tells a
// worker whose own origins are done when the cluster next has work it could lease (another owner's
// origin counting from its lease's expiry). Commit fences: a batch with Owner set is refused with a
// *store.LeaseLostError when Owner does not hold the lease of every origin it writes for; the check
// locks the lease rows (FOR KEY SHARE, owner being a key column), so a takeover waits for a commit
// that passed it, and a renewal does not. robots.txt decisions and pauses are origin records, so
// every process sees them once committed.
//
// Search (issue 31 part 4: the layout of internal/store/sqlite/layout-plan.md on PostgreSQL):
// documents are staged at Commit (their text written once, to doc_text) and folded by IndexPending,
// which writes each document's entry once per fetch: a docs row with the full weighted tsvector
// (title A, headings B, URL words C, body D; built by the crawl process from the server's stems,
// tsvec.go) under a GIN index, and the base of its heads row. Anchor text lives apart, in heads
// (atsv, anchor text B), and is rebuilt in bulk by generations over link_log (anchors.go): a
// target's anchor text is rewritten at powers of two of its inlink count, so O(log inlinks) times
// over a crawl; RefreshIndex runs the last generation, which writes every pending target. The head
// index is one small GIN index over heads (title, headings, URL words, anchor text): a query takes
// up to headCandidates entries from it, the best by their head's rank among its first headScan
// matches, and ranks them with ts_rank_cd over the entry's whole tsvector (the document's and its
// anchor text); the full index is read (up to searchCandidates matches) only when the head gives
// fewer than the page needs. Indexers in several processes share the folds (FOR UPDATE SKIP
// LOCKED); one runs a generation at a time. The total is counted from the GIN indexes and the
// narrow heaps, no tsvector read.
//
// Upkeep (stats.go): the store does not rely on autovacuum. Before each anchor generation and
// after every maintainEvery documents a process folds, it analyzes the tables never analyzed or
// grown to twice their pages since, and vacuums those whose dead rows outnumber their live ones,
// one process at a time; without statistics PostgreSQL planned `id = ANY($1)` of a fold's or a
// generation's IDs as a sequential scan of every row. Connections compress out-of-line values
// (documents' text and tsvectors) with lz4 where the server has it.
//
// Differences from the SQLite store, where PostgreSQL does not allow the same:
//   - Scores are ts_rank_cd's (index.RankClassWeights: 0.05/0.15/0.4/1.0, length-normalized),
//     not bm25's: they order results the same way in spirit but are not comparable across
//     stores. A tsvector has four weight classes, so headings share anchor text's (B, 8/20 rather
//     than 5/20) and identifier parts the body's (D, 1 rather than 0.5); ts_rank_cd's cover
//     density is the proximity rule (SQLite: a NEAR boost).
//   - The query language (index/querylang.go) becomes a tsquery (tsquery.go): a phrase and an
//     identifier are words joined by <->, a prefix is :*. Stemming is the Snowball English
//     stemmer of the configuration mandelbot_words, where SQLite's FTS5 uses Porter's: a few
//     words stem differently.
//   - Counting stops at index.MaxCount in both stores. Total counts the entries that match in
//     their own text or in their head (title, headings, URL, anchor text); one with a word only
//     in the anchor text of links to it and another only in its body is not found.
//   - A query whose words are in the titles, headings, URLs or anchor text of more than
//     headCandidates entries ranks only the headCandidates best by those, among the first
//     headScan of them in the index's order; a page with the words in its body alone, or past
//     headScan, may then be missing from the results (Total still counts every match).
//   - An entry's anchor text may lack up to half of its newest links between two generations
//     (RefreshIndex writes them all).
//   - A shown document's snippet is the sentence index.Snippet picks, as in the SQLite store;
//     where no sentence holds a query word, and for a link-only entry, it is ts_headline of the
//     body (of the anchor text), made for the shown results only, rather than of the best
//     column, and marks words as PostgreSQL's parser finds them: a query word matched only
//     without its diacritics is found but not highlighted.
//   - Text is stored as PostgreSQL text: invalid UTF-8 becomes U+FFFD and NUL a space (robots.txt
//     bodies are bytea, kept byte for byte).
//   - Times have microsecond precision.
//   - RefreshIndex waits for rows another process's indexer holds, and for another process's
//     generation, then returns; IndexLag counts every process's staged documents.
package postgres
