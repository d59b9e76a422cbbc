package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// indexChunk bounds how many staged documents, or merged targets, one indexing transaction
// handles, so that the indexer never holds the one writer for long: the crawl's commits wait
// behind it. Each refresh transaction adds one FTS5 segment, so larger chunks also mean fewer
// segment merges: 2,000 was a third cheaper than 500 per entry, and holds the writer for tens of
// milliseconds.
const indexChunk = 2000

// pendingBytes bounds the text one chunk of IndexPending reads from the stage: it writes the
// text during the crawl, when the crawl's own buffers are at their peak, and each byte of a
// chunk is held about three times over (Go's copy, the statement's, FTS5's pending terms)
// until its transaction ends. With chunks of 2 MiB the hostile web's crawl peaked at 259 MiB
// under CI's load, against its bound of 256 (TestHostileWebBesideANormalSite); with 1 MiB at 250,
// as base did (249). Smaller chunks cost more than they save: at 512 KiB a crawl of 20,000
// testweb pages took 9.1 s instead of 7.4-7.9 (more transactions, and FTS5 segments to merge).
const pendingBytes = foldBytes / 8

// behindDocs is the stage's size from which IndexPending reads chunks of foldBytes rather than
// pendingBytes: the indexer is then behind by a few chunks of indexChunk documents, and a
// crawl of small pages (the hostile web's) never gets there.
const behindDocs = 4 * indexChunk

// foldBytes bounds the text one chunk of the index's refresh reads from the stage (besides
// indexChunk documents): a chunk's text is held in memory until its FTS5 rows are written, and a
// page may carry up to store.MaxIndexedTextBytes.
const foldBytes = 8 << 20

// The indexer's statements over a set of IDs (idSet). Each must look its rows up by an index,
// never scan a table: they run once per chunk, and a scan makes indexing a crawl quadratic
// (TestEveryStatementUsesIndexes checks the plans).
const (
	sqlOldOutlinks = `SELECT url_id, links FROM folded WHERE url_id ` + inSet
	sqlDeleteDocs  = `DELETE FROM docs WHERE url_id ` + inSet
	sqlInsertDocs  = `INSERT OR REPLACE INTO docs (url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash, num)`
	// sqlOldEntries reads the entries the fold replaces: a document keeps its inlinks, and one
	// that was no entry gets its anchor text at the merge of its touch (anchors.go).
	sqlOldEntries = `SELECT url_id, inlinks FROM docs WHERE url_id ` + inSet
	// sqlPlanDocs reads the document entries of a set (planDocs), sqlPlanEntries the rest's URL
	// rows with their entries, if any.
	sqlPlanDocs = `SELECT d.url_id, d.nosnippet, d.unavailable_after, d.content_hash, d.num, d.inlinks,
			y.url_id IS NOT NULL, y.lo, y.hi
		FROM docs d LEFT JOIN dirty y ON y.url_id = d.url_id WHERE d.link_only = 0 AND d.url_id ` + inSet
	sqlPlanEntries = `SELECT u.id, u.url, u.fetched_at, u.kind, u.state, d.url_id IS NOT NULL, d.link_only,
			d.nosnippet, d.unavailable_after, d.content_hash, d.num, d.inlinks, y.url_id IS NOT NULL, y.lo, y.hi
		FROM urls u LEFT JOIN docs d ON d.url_id = u.id LEFT JOIN dirty y ON y.url_id = u.id
		WHERE u.id ` + inSet
	sqlHadAnchors = `SELECT id FROM fts_anchors_docsize WHERE id ` + inSet
	// sqlLinksTo reads every link to the set from links, whose primary key leads with the
	// target (its order is the ORDER BY): readAnchors counts anchors and linking pages in Go,
	// where two GROUP BY queries sorted the same rows twice in temporary B-trees.
	sqlLinksTo = `SELECT to_id, from_id, anchor FROM links WHERE to_id ` + inSet + ` ORDER BY to_id, from_id`
)

// sqlUnfold removes the folded documents' header and links: the chunk's replace them (foldChunk).
const sqlUnfold = `DELETE FROM folded WHERE url_id ` + inSet

// IndexPending implements store.Indexer, in transactions of at most indexChunk documents: it
// folds staged documents into the link log and the entries' metadata, and writes their own
// text to FTS5 (once per fetch, on the index database's writer, beside the crawl's commits:
// attach.go); then, if link_log holds enough rows (mergeLeast), it merges it into links, rewriting
// the anchor text of the targets whose inlinks doubled or halved (linklog.go, anchors.go).
//
// While behindDocs documents or more wait, its chunks read up to foldBytes of text, as the
// refresh's do: with URL IDs that are hashes, a chunk's links and rows land on pages all over
// the index, and each commit writes each page it touched once, so larger transactions write
// fewer pages per document once the index is large (issue 8: at 1,000,000 pages an indexer that
// wrote its backlog only in chunks of pendingBytes trailed the crawl by 98,000 documents, near
// crawler.MaxIndexLag, past which the crawl waits for it).
func (s *Store) IndexPending(ctx context.Context, max int) (int, error) {
	lag, err := s.IndexLag(ctx)
	if err != nil {
		return 0, err
	}
	ctx, unlock, err := s.lockIndex(ctx)
	if err != nil {
		return 0, fmt.Errorf("sqlite: index: %w", err)
	}
	defer unlock()
	n, err := s.indexStagedLocked(ctx, max, pendingChunkBytes(lag), false)
	if err != nil {
		return n, err
	}
	_, err = s.mergeLinks(ctx, dueLog, rewriteDue)
	return n, err
}

// pendingChunkBytes is how much text one chunk of IndexPending reads with lag documents staged.
func pendingChunkBytes(lag int) int {
	if lag >= behindDocs {
		return foldBytes
	}
	return pendingBytes
}

// RefreshIndex implements store.Indexer: every staged document, and the whole link log merged
// with every target left in dirty, then every dirty entry rewritten exactly (anchors.go: planned
// on a reader beside the writes, rewriteDirty); then the crawl database's free pages, of the text
// it staged, are given back (reclaim.go). It holds indexMu throughout, so that no other step of
// the indexer writes between its transactions.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) {
	ctx, unlock, err := s.lockIndex(ctx)
	if err != nil {
		return 0, fmt.Errorf("sqlite: refresh index: %w", err)
	}
	defer unlock()
	total, err := s.indexStagedLocked(ctx, math.MaxInt, foldBytes, true)
	if err != nil {
		return total, err
	}
	if _, err := s.mergeLinks(ctx, anyLog, markDirty); err != nil {
		return total, err
	}
	n, err := s.rewriteDirty(ctx)
	total += n
	if err != nil {
		return total, err
	}
	return total, s.reclaim(ctx)
}

// IndexLag implements store.Indexer: staged documents whose text is not in FTS5 yet, counted on
// the small index of staged.url_id, not on the rows that hold the pages' text.
func (s *Store) IndexLag(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM staged`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: index lag: %w", err)
	}
	return n, nil
}

// stagedDoc is one row of staged, with its URL.
type stagedDoc struct {
	ownText                // num: the entry's number once indexed (nums.go)
	oldNum           int64 // its number as an entry before this fold, 0 if none
	seq              int64 // the staged row's version (staged.seq)
	index, nosnippet bool
	unavailableAfter time.Time
	links            []store.StagedLink
	rawLinks         []byte // links as staged (store.EncodeLinks)
	header           []byte // the response header as staged (store.EncodeHeader)
}

// indexStagedLocked indexes up to max staged documents, in commit order, in chunks of at most
// indexChunk documents and about maxBytes of their text, and returns how many it indexed. Each
// chunk is one transaction of the index database: it numbers the chunk's documents (nums.go),
// folds them (what changed in their outgoing links is appended to link_log, foldChunk, whose
// merge rewrites the targets' anchor text when due, mergeLinks), writes each document's metadata
// row and, last, its fts and head rows (its own text, tokenized once per fetch). A document that
// was an entry keeps its inlinks (as its anchor row was last written) and anchor row; one that
// was none is touched in link_log, for the merge to write its anchor text. A document that may
// not be indexed (rule 27) leaves the index, anchor text and all. Then the documents leave the
// stage (indexTxLocked's order: index, then crawl). Every step is one statement for the whole
// chunk (or a few multi-row ones), not one per document or link.
//
// The stage is read on a read connection, outside the transaction, and each chunk's rows are
// computed (rowsOf) while the transaction reads what it replaces. With ahead (RefreshIndex: the
// crawl is over, and one core would stand idle), the next chunk is read and its rows computed
// while the transaction of the one before runs: two chunks' text are held then. The caller holds
// indexMu.
func (s *Store) indexStagedLocked(ctx context.Context, max, maxBytes int, ahead bool) (int, error) {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("sqlite: index: %w", err)
	}
	defer conn.Close()
	next := make(chan stagedChunk, 1)
	read := func(limit int, after int64) {
		if ahead {
			go func() { next <- readChunk(ctx, conn, limit, maxBytes, after) }()
		} else {
			next <- readChunk(ctx, conn, limit, maxBytes, after)
		}
	}
	total := 0
	read(min(max, indexChunk), math.MinInt64) // the stage is read in seq order
	for {
		c := <-next
		if c.err != nil || len(c.docs) == 0 {
			return total, c.err
		}
		rest, after := max-total-len(c.docs), c.docs[len(c.docs)-1].seq
		readAhead := ahead && rest > 0
		if readAhead {
			read(min(rest, indexChunk), after)
		}
		if err := s.foldStaged(ctx, c); err != nil {
			if readAhead {
				<-next // its read ends before conn is closed
			}
			return total, fmt.Errorf("sqlite: index: %w", err)
		}
		total += len(c.docs)
		if rest <= 0 {
			return total, nil
		}
		if !readAhead {
			read(min(rest, indexChunk), after)
		}
	}
}

// stagedChunk is one chunk of the stage as read, its fts and head rows being computed (rows,
// rowsOf), or the error that stopped the read.
type stagedChunk struct {
	docs []stagedDoc
	rows func() []ownRow
	err  error
}

// readChunk reads up to limit staged documents after the seq after (readStaged) and starts
// computing their rows.
func readChunk(ctx context.Context, conn *sql.Conn, limit, maxBytes int, after int64) stagedChunk {
	docs, err := readStaged(ctx, conn, limit, maxBytes, after)
	if err != nil {
		return stagedChunk{err: fmt.Errorf("sqlite: index: %w", err)}
	}
	var texts []ownText
	for _, d := range docs {
		if d.index {
			texts = append(texts, d.ownText)
		}
	}
	return stagedChunk{docs: docs, rows: rowsOf(texts)}
}

// foldStaged indexes one chunk of staged documents: see indexStagedLocked.
func (s *Store) foldStaged(ctx context.Context, c stagedChunk) error {
	docs := c.docs
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	return s.indexTxLocked(ctx, func(ctx context.Context, tx writeTx, ack *func(context.Context, writeTx) error) error {
		// In the crawl database once this is committed: the documents leave the stage; a
		// document staged again meanwhile (another seq) stays.
		versions := pairSet(len(docs), func(i int) (int64, int64) { return docs[i].id, docs[i].seq })
		*ack = func(ctx context.Context, tx writeTx) error {
			if _, err := tx.ExecContext(ctx, sqlUnstage, versions); err != nil {
				return fmt.Errorf("index: staged documents: %w", err)
			}
			return nil
		}
		drop, err := numberDocs(ctx, tx, docs, ids)
		if err != nil {
			return err
		}
		rows := c.rows() // one per document that may be indexed, in order (readChunk)
		hashes := make(map[int64]uint64, len(rows))
		i := 0
		for _, d := range docs {
			if d.index {
				rows[i].num, hashes[d.id] = d.num, rows[i].hash
				i++
			}
		}
		if err := foldDocs(ctx, tx, docs, ids, hashes); err != nil {
			return err
		}
		if err := writeOwn(ctx, tx, drop, rows); err != nil {
			return err
		}
		return tail(ctx, tx, docs)
	})
}

// numberDocs reads the numbers of the entries docs (whose IDs are ids) were (oldNum) and gives
// each document that may be indexed its number (num): its old one, or a new one. It returns the
// old numbers, whose own rows the fold replaces or removes.
func numberDocs(ctx context.Context, tx writeTx, docs []stagedDoc, ids []int64) ([]int64, error) {
	old, err := readNums(ctx, tx, ids)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	nums, err := newNumbers(ctx, tx)
	if err != nil {
		return nil, err
	}
	var drop []int64
	for i := range docs {
		d := &docs[i]
		d.oldNum = old[d.id]
		if d.oldNum != 0 {
			drop = append(drop, d.oldNum)
		}
		switch {
		case !d.index:
		case d.oldNum != 0:
			d.num = d.oldNum
		default:
			d.num = nums.next()
		}
	}
	return drop, nil
}

// tail drops the anchor rows of the chunk's documents that were entries and may not be indexed
// (rule 27: not searchable, not even as a link-only entry); an entry the merge has not reached
// yet has none, and FTS5's delete of a missing row changes nothing. A document's anchor row is
// otherwise written by the merge: a new entry's, once its touch in link_log is merged, and an
// entry's whose links changed. No empty row is written here to be replaced there (issue 8: they
// were a third of the anchor rows written).
func tail(ctx context.Context, tx writeTx, docs []stagedDoc) error {
	var dropAnchors []int64
	for _, d := range docs {
		if !d.index && d.oldNum != 0 {
			dropAnchors = append(dropAnchors, d.oldNum)
		}
	}
	return writeAnchors(ctx, tx, dropAnchors, nil)
}

// foldDocs folds docs (whose IDs are ids) and writes their metadata rows, with their content
// hashes (by URL ID): see indexStagedLocked.
func foldDocs(ctx context.Context, tx writeTx, docs []stagedDoc, ids []int64, hash map[int64]uint64) error {
	if len(docs) == 0 {
		return nil
	}
	set := idSet(ids)
	inlinks, err := queryMap[int64](ctx, tx, sqlOldEntries, set) // of the entries that exist
	if err != nil {
		return fmt.Errorf("index: entries: %w", err)
	}
	if err := foldChunk(ctx, tx, docs, set, inlinks); err != nil {
		return err
	}
	var meta [][]any
	for _, d := range docs {
		if d.index {
			meta = append(meta, []any{d.id, 0, boolInt(d.nosnippet), unix(d.unavailableAfter), inlinks[d.id], int64(hash[d.id]), d.num})
		}
	}
	if _, err := tx.ExecContext(ctx, sqlDeleteDocs, set); err != nil {
		return fmt.Errorf("index: fold: %w", err)
	}
	// OR REPLACE (the rows were deleted above: it replaces nothing) so that the statement cannot
	// abort halfway and opens no statement journal (see writeOwn).
	if err := insertRows(ctx, tx, sqlInsertDocs, 7, meta); err != nil {
		return fmt.Errorf("index: documents: %w", err)
	}
	return nil
}

// sqlUnstage records in the crawl database that the staged documents named in a JSON array of
// [url_id, seq] pairs (pairSet) were indexed with their text: they leave the stage.
const sqlUnstage = `DELETE FROM staged WHERE seq IN (SELECT s.seq FROM staged s
		JOIN (SELECT value ->> 0 AS id, value ->> 1 AS seq FROM json_each(?)) AS v ON s.seq = v.seq AND s.url_id = v.id)`

// foldChunk folds the links and headers of docs (whose IDs are set): each document's row in
// folded (its header and outgoing links) replaces its old one, appended (folded's rowid is the
// fold's order, so a chunk's rows fill new pages: keyed by URL ID, two tables of them were most
// of the pages a fold wrote, issue 26), and what changed in its links is appended to link_log, in order
// (sequential writes: the merge moves it into links later, sorted by target, mergeLinks), with a
// touch of each document that was no entry (not in entries), so that the merge writes its
// anchor text.
func foldChunk(ctx context.Context, tx writeTx, docs []stagedDoc, set string, entries map[int64]int64) error {
	old, err := readOutlinks(ctx, tx, set)
	if err != nil {
		return err
	}
	var log, out [][]any
	for _, d := range docs {
		if _, ok := entries[d.id]; !ok && d.index {
			log = append(log, []any{d.id, 0, "", 0, logTouch})
		}
		log = appendLinkChanges(log, d.id, old[d.id], d.links)
		out = append(out, []any{d.id, nonNil(d.header), nonNil(d.rawLinks)})
	}
	if _, err := tx.ExecContext(ctx, sqlUnfold, set); err != nil {
		return fmt.Errorf("index: fold: %w", err)
	}
	if err := insertRows(ctx, tx, `INSERT INTO folded (url_id, header, links)`, 3, out); err != nil {
		return fmt.Errorf("index: folded pages: %w", err)
	}
	if err := insertRows(ctx, tx, `INSERT INTO link_log (to_id, from_id, anchor, fragment, added)`, 5, log); err != nil {
		return fmt.Errorf("index: link log: %w", err)
	}
	return nil
}

// The operations of link_log.added: a link removed, a link added (or its fragment flag changed),
// and a touch, which changes no link but makes its target one of the merge's.
const (
	logRemove = 0
	logAdd    = 1
	logTouch  = 2
)

// appendLinkChanges appends to log the link_log rows (to_id, from_id, anchor, fragment, added)
// that turn from's links old into its links now: each link of old that now lacks is removed,
// each of now that old lacks (or had with another fragment flag) is added. A page's links are
// kept once per target and anchor (store.EncodeLinks).
func appendLinkChanges(log [][]any, from int64, old, now []store.StagedLink) [][]any {
	type key struct {
		to     int64
		anchor string
	}
	had := make(map[key]bool, len(old))
	for _, l := range old {
		had[key{l.To, l.Anchor}] = l.Fragment
	}
	for _, l := range now {
		k := key{l.To, l.Anchor}
		frag, ok := had[k]
		delete(had, k)
		if !ok || frag != l.Fragment {
			log = append(log, []any{l.To, from, l.Anchor, boolInt(l.Fragment), logAdd})
		}
	}
	for _, l := range old {
		if _, gone := had[key{l.To, l.Anchor}]; gone {
			log = append(log, []any{l.To, from, l.Anchor, boolInt(l.Fragment), logRemove})
		}
	}
	return log
}

// readOutlinks reads the outgoing links of the documents of the set that have any.
func readOutlinks(ctx context.Context, tx writeTx, set string) (map[int64][]store.StagedLink, error) {
	out := map[int64][]store.StagedLink{}
	err := eachRow(ctx, tx, sqlOldOutlinks, []any{set}, func(r *sql.Rows) error {
		var id int64
		var blob []byte
		err := r.Scan(&id, &blob)
		if err == nil {
			out[id], err = store.DecodeLinks(blob)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("index: old links: %w", err)
	}
	return out, nil
}

// sqlReadStaged reads the stage in commit order from a seq on, with each document's URL (for
// its words).
const sqlReadStaged = `SELECT s.seq, s.url_id, s.idx, s.title, s.body, s.headings, s.nosnippet, s.unavailable_after, s.links, s.header,
			COALESCE(u.url, '')
		FROM staged s LEFT JOIN urls u ON u.id = s.url_id WHERE s.seq > ? ORDER BY s.seq LIMIT ?`

// readStaged reads up to limit staged documents with a seq above after, and stops after the one
// that brings their text to maxBytes.
func readStaged(ctx context.Context, q querier, limit, maxBytes int, after int64) ([]stagedDoc, error) {
	rows, err := q.QueryContext(ctx, sqlReadStaged, after, limit)
	if err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	defer rows.Close()
	var docs []stagedDoc
	bytes := 0
	for bytes < maxBytes && rows.Next() {
		var d stagedDoc
		var idx, nosnippet int
		var ua int64
		var links []byte
		if err := rows.Scan(&d.seq, &d.id, &idx, &d.title, &d.body, &d.headings, &nosnippet, &ua, &links, &d.header, &d.url); err != nil {
			return nil, fmt.Errorf("index: read staged: %w", err)
		}
		d.index, d.nosnippet, d.unavailableAfter = idx != 0, nosnippet != 0, fromUnix(ua)
		d.rawLinks = links
		if d.links, err = store.DecodeLinks(links); err != nil {
			return nil, fmt.Errorf("index: staged document %d: %w", d.id, err)
		}
		bytes += len(d.title) + len(d.body) + len(d.headings)
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	return docs, nil
}
