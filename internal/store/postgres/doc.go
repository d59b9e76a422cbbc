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
// Leases (leases.go) exclude other owners, expire, are renewed (LeaseOrigins renews everything
// the owner holds; RenewOrigins renews given keys and reports the lost ones) and are taken over
// once expired; LeaseOrigins grants no origin paused past its until (issue 31 part 3); NextDue tells a worker whose own origins are done when the cluster next has work
// it could lease (another owner's origin counting from its lease's expiry). Commit fences: a batch with Owner set is refused with a *store.LeaseLostError
// when Owner does not hold the lease of every origin it writes for; the check locks the lease
// rows, so a takeover waits for a commit that passed it. robots.txt decisions and pauses are
// origin records, so every process sees them once committed.
//
// Search: the SQLite store's design (documents staged at Commit, folded by IndexPending, the
// searchable text written once per entry by RefreshIndex), with a weighted tsvector in docs (title
// A, anchor text B, URL words C, body D), a GIN index, and ts_rank_cd. Indexers in several
// processes share the work (FOR UPDATE SKIP LOCKED). A query ranks at most searchCandidates
// entries: the GIN match ordered by inlinks (a cheap column), limited, then ranked; the total is
// an exact count, which reads the index and the heap but no tsvector.
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
//   - Counting stops at index.MaxCount in both stores; the candidates of a common word are those
//     with the most inlinks here (below), the title and early matches in SQLite.
//   - A query matching more than searchCandidates entries ranks only the searchCandidates with
//     the most inlinks; a relevant page with few inlinks may be missing from deep pages of a
//     common word's results (Total still counts every match).
//   - Snippets are ts_headline of the body (the anchor text for a link-only entry) rather than
//     of the best column, and mark words as PostgreSQL's parser finds them: a query word matched
//     only without its diacritics is found but not highlighted.
//   - Text is stored as PostgreSQL text: invalid UTF-8 becomes U+FFFD and NUL a space (robots.txt
//     bodies are bytea, kept byte for byte).
//   - Times have microsecond precision.
//   - RefreshIndex waits for rows another process's indexer holds, then returns; IndexLag counts
//     every process's staged documents.
package postgres
