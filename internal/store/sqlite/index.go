package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// indexChunk bounds how many staged documents, or dirty entries, one indexing transaction
// handles, so that the indexer never holds the one writer for long: the crawl's commits wait
// behind it. Each refresh transaction adds one FTS5 segment, so larger chunks also mean fewer
// segment merges: 2,000 was a third cheaper than 500 per entry, and holds the writer for tens of
// milliseconds.
const indexChunk = 2000

// catchUpChunks is how many chunks of indexChunk entries RefreshIndex writes in one transaction:
// it runs when the crawl is over (the index catching up), so no commit waits behind it, and
// larger transactions let FTS5 write fewer, larger segments, with less merging (issue 8). Each
// chunk's entries are released before the next is read: the memory held is one chunk's.
const catchUpChunks = 3

// The indexer's statements over a set of IDs (idSet). Each must look its rows up by an index,
// never scan a table: they run once per chunk, and a scan makes indexing a crawl quadratic
// (TestIndexerStatementsUseIndexes checks the plans).
const (
	sqlOldTargets  = `SELECT DISTINCT to_id FROM links WHERE from_id ` + inSet
	sqlDeleteDocs  = `DELETE FROM docs WHERE url_id ` + inSet
	sqlPlanEntries = `SELECT u.id, u.url, u.fetched_at, u.kind, u.state, d.url_id IS NOT NULL, d.link_only,
			d.nosnippet, d.unavailable_after, s.url_id IS NOT NULL, s.title, s.body, s.headings
		FROM urls u LEFT JOIN docs d ON d.url_id = u.id LEFT JOIN staged s ON s.url_id = u.id AND +s.folded = 1
		WHERE u.id ` + inSet
	sqlFTSText = `SELECT rowid, title, body, headings FROM fts WHERE rowid ` + inSet
	// sqlLinksTo reads every link to the set from the links_to index alone (it holds the whole
	// primary key, and its order is the ORDER BY): readAnchors counts anchors and linking pages
	// in Go, where two GROUP BY queries sorted the same rows twice in temporary B-trees.
	sqlLinksTo = `SELECT to_id, from_id, anchor FROM links WHERE to_id ` + inSet + ` ORDER BY to_id, from_id`
)

var (
	foldStatements = []string{
		`DELETE FROM links WHERE from_id ` + inSet,
		// The staged header (NULL if staged before migration 13, when it went to doc_headers
		// directly) becomes the URL's kept header.
		`INSERT OR REPLACE INTO doc_headers (url_id, header)
			SELECT url_id, header FROM staged WHERE url_id ` + inSet + ` AND header IS NOT NULL`,
		// Only the flag, not links = NULL: a row of the same size is overwritten in place, and
		// SQLite leaves its overflow pages (the page's text) unwritten; emptying links made
		// every fold copy each document's text again (issue 8). A folded row's links are
		// never read (they are in the links table now), and go with the row at refresh.
		`UPDATE staged SET folded = 1 WHERE url_id ` + inSet,
		sqlDeleteDocs,
		// A folded document's entry is dirty: it no longer waits as a link-only entry.
		`DELETE FROM waiting WHERE url_id ` + inSet,
	}
	// wakeStatements make the entries RefreshDocuments left waiting dirty again, for RefreshIndex.
	wakeStatements = []string{
		`INSERT OR IGNORE INTO dirty (url_id) SELECT url_id FROM waiting`,
		`DELETE FROM waiting`,
	}
	refreshStatements = []string{
		`DELETE FROM dirty WHERE url_id ` + inSet,
		// +folded: rows are looked up by url_id; on the staged_folded index this scanned every
		// folded row for each chunk.
		`DELETE FROM staged WHERE +folded = 1 AND url_id ` + inSet,
	}
)

// IndexPending implements store.Indexer, in transactions of at most indexChunk documents: it
// folds staged documents into links and metadata and marks their entries dirty; RefreshIndex
// writes the FTS5 rows, once per entry however often it changed in between.
func (s *Store) IndexPending(ctx context.Context, max int) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("sqlite: index: %w", ErrReadOnly)
	}
	total := 0
	for total < max {
		n, err := s.indexStaged(ctx, min(indexChunk, max-total))
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, nil
}

// RefreshIndex implements store.Indexer: every staged document, then every dirty entry.
func (s *Store) RefreshIndex(ctx context.Context) (int, error) {
	return s.refresh(ctx, false)
}

// RefreshDocuments implements store.Indexer: RefreshIndex, except that the link-only entries of
// URLs still queued wait, unwritten, for the next RefreshIndex (in the waiting table).
func (s *Store) RefreshDocuments(ctx context.Context) (int, error) {
	return s.refresh(ctx, true)
}

// refresh indexes every staged document, then goes once through the dirty entries in ID order;
// with deferQueued it leaves the link-only entries of queued URLs waiting, else it first makes
// the waiting entries dirty again.
func (s *Store) refresh(ctx context.Context, deferQueued bool) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("sqlite: refresh index: %w", ErrReadOnly)
	}
	total := 0
	for {
		n, err := s.indexStaged(ctx, indexChunk)
		total += n
		if err != nil {
			return total, err
		}
		if n == 0 {
			break
		}
	}
	if !deferQueued {
		if err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
			for _, q := range wakeStatements {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("refresh: waiting entries: %w", err)
				}
			}
			return nil
		}); err != nil {
			return total, fmt.Errorf("sqlite: refresh index: %w", err)
		}
	}
	from, more := int64(math.MinInt64), true
	for more {
		chunks := 1 // during a crawl: the crawl's commits wait behind each transaction
		if !deferQueued {
			chunks = catchUpChunks
		}
		n, last, err := s.refreshDirty(ctx, indexChunk, from, deferQueued, chunks)
		total += n
		if err != nil {
			return total, err
		}
		// Entries marked dirty meanwhile below last wait for the next refresh, as those
		// marked after it returns.
		from, more = last+1, n > 0 && last < math.MaxInt64
	}
	return total, nil
}

// IndexLag implements store.Indexer: staged documents not written to FTS5 yet, counted on the
// small staged_folded index, not on the rows that hold the pages' text.
func (s *Store) IndexLag(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM staged`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: index lag: %w", err)
	}
	return n, nil
}

// stagedDoc is one row of staged.
type stagedDoc struct {
	id               int64
	index, nosnippet bool
	title, body      string
	unavailableAfter time.Time
	links            []store.StagedLink
}

// indexStaged folds up to limit unfolded staged documents in one transaction: their outgoing
// links replace the old ones, the targets of old and new links and the documents themselves are
// marked dirty, and the document's metadata row is written. The text stays staged until
// refreshDirty writes the FTS5 row: FTS5 rows are the expensive part, so each is written once per
// refresh, not once per fold and again per anchor change. Every step is one statement for the
// whole chunk (or a few multi-row ones), not one per document or link.
func (s *Store) indexStaged(ctx context.Context, limit int) (int, error) {
	var n int
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		docs, err := readStaged(ctx, tx, limit)
		if err != nil || len(docs) == 0 {
			return err
		}
		n = len(docs)
		ids := make([]int64, len(docs))
		for i, d := range docs {
			ids[i] = d.id
		}
		set := idSet(ids)
		dirty := make(map[int64]bool, 8*len(docs))
		rows, err := tx.QueryContext(ctx, sqlOldTargets, set)
		if err != nil {
			return fmt.Errorf("index: old links: %w", err)
		}
		for rows.Next() {
			var to int64
			if err := rows.Scan(&to); err != nil {
				rows.Close()
				return fmt.Errorf("index: old links: %w", err)
			}
			dirty[to] = true
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("index: old links: %w", err)
		}
		for _, q := range foldStatements {
			if _, err := tx.ExecContext(ctx, q, set); err != nil {
				return fmt.Errorf("index: fold: %w", err)
			}
		}
		var links, meta [][]any
		for _, d := range docs {
			dirty[d.id] = true
			for _, l := range d.links {
				links = append(links, []any{d.id, l.To, l.Anchor, boolInt(l.Fragment)})
				dirty[l.To] = true
			}
			if d.index { // else rule 27: not searchable, not even as a link-only entry
				meta = append(meta, []any{d.id, 0, boolInt(d.nosnippet), unix(d.unavailableAfter), 0})
			}
		}
		if err := insertRows(ctx, tx, `INSERT OR IGNORE INTO links (from_id, to_id, anchor, fragment)`, 4, "", links); err != nil {
			return fmt.Errorf("index: links: %w", err)
		}
		if err := insertRows(ctx, tx, `INSERT INTO docs (url_id, link_only, nosnippet, unavailable_after, inlinks)`, 5, "", meta); err != nil {
			return fmt.Errorf("index: documents: %w", err)
		}
		marks := make([][]any, 0, len(dirty))
		for id := range dirty {
			marks = append(marks, []any{id})
		}
		if err := insertRows(ctx, tx, `INSERT OR IGNORE INTO dirty (url_id)`, 1, "", marks); err != nil {
			return fmt.Errorf("index: mark dirty: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: index: %w", err)
	}
	return n, nil
}

func readStaged(ctx context.Context, tx writeTx, limit int) ([]stagedDoc, error) {
	rows, err := tx.QueryContext(ctx, `SELECT url_id, idx, '', '', nosnippet, unavailable_after, links
		FROM staged WHERE folded = 0 ORDER BY seq LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	defer rows.Close()
	var docs []stagedDoc
	for rows.Next() {
		var d stagedDoc
		var idx, nosnippet int
		var ua int64
		var links []byte
		if err := rows.Scan(&d.id, &idx, &d.title, &d.body, &nosnippet, &ua, &links); err != nil {
			return nil, fmt.Errorf("index: read staged: %w", err)
		}
		d.index, d.nosnippet, d.unavailableAfter = idx != 0, nosnippet != 0, fromUnix(ua)
		if d.links, err = store.DecodeLinks(links); err != nil {
			return nil, fmt.Errorf("index: staged document %d: %w", d.id, err)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: read staged: %w", err)
	}
	return docs, nil
}

// writeFTS removes the FTS5 rows of ids and inserts rows: the last statements of an indexing
// transaction.
func writeFTS(ctx context.Context, tx writeTx, ids []int64, rows []ftsRow) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid = ?`, id); err != nil {
			return fmt.Errorf("index: remove %d: %w", id, err)
		}
	}
	for _, r := range rows {
		if err := r.insert(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}

// refreshDirty rewrites up to limit dirty entries, those with an ID from from up, in ID order,
// with their current anchor text, in one transaction, and returns how many it looked at and the
// last one's ID: a document keeps its title and text (the staged text if it was folded since,
// else the FTS5 row's); a URL never fetched becomes (or stays) a link-only entry while links point
// to it, unless deferQueued and the URL is queued, when the entry moves to waiting, unwritten,
// until RefreshIndex or the fold of the URL's document (it will most likely be fetched first, and
// a link-only entry written now would only be replaced then: most of a large crawl's index work,
// issue 8); a fetched URL without a document
// (noindex, not 2xx, a sitemap) stays out of the index. Reads and deletes are one statement for
// the whole chunk; FTS5 rows are written last.
func (s *Store) refreshDirty(ctx context.Context, limit int, from int64, deferQueued bool, chunks int) (int, int64, error) {
	var n int
	var last int64
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		for range chunks {
			k, l, err := refreshChunk(ctx, tx, limit, from, deferQueued)
			if err != nil || k == 0 {
				return err
			}
			n, last = n+k, l
			if l == math.MaxInt64 {
				return nil
			}
			from = l + 1
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("sqlite: refresh index: %w", err)
	}
	return n, last, nil
}

// refreshChunk is one chunk of refreshDirty in tx: up to limit dirty entries from from up; it
// returns how many it looked at and the last one's ID. Its FTS5 rows are its last statements,
// and no statement of a next chunk in the same transaction opens a statement journal (which
// would make FTS5 flush its pending terms as a segment of their own).
func refreshChunk(ctx context.Context, tx writeTx, limit int, from int64, deferQueued bool) (int, int64, error) {
	var n int
	var last int64
	err := func() error {
		ids, err := queryIDs(ctx, tx, `SELECT url_id FROM dirty WHERE url_id >= ? ORDER BY url_id LIMIT ?`, from, limit)
		if err != nil || len(ids) == 0 {
			return err
		}
		n, last = len(ids), ids[len(ids)-1]
		set := idSet(ids)
		plans, err := planEntries(ctx, tx, set)
		if err != nil {
			return err
		}
		var done []int64    // written or removed now
		var waiting [][]any // deferred: in waiting until RefreshIndex, or the URL's fetch
		for _, id := range ids {
			if p := plans[id]; deferQueued && p != nil && p.keep && p.e.linkOnly && p.queued {
				waiting = append(waiting, []any{id})
			} else {
				done = append(done, id)
			}
		}
		var touched []int64 // entries rewritten (kept) or removed
		var entries []entry
		for _, id := range done {
			p, ok := plans[id]
			if !ok || p.unknownText {
				// Unknown URL; or a document whose newer text is staged but not folded yet:
				// its fold marks it dirty again.
				continue
			}
			touched = append(touched, id)
			if p.keep {
				entries = append(entries, p.e)
			}
		}
		// The rows are computed beside the statements below; wait is called before any return.
		wait := rowsOf(entries)
		err = func() error {
			for _, q := range refreshStatements {
				if _, err := tx.ExecContext(ctx, q, set); err != nil {
					return fmt.Errorf("refresh: %w", err)
				}
			}
			if err := insertRows(ctx, tx, `INSERT OR IGNORE INTO waiting (url_id)`, 1, "", waiting); err != nil {
				return fmt.Errorf("refresh: waiting entries: %w", err)
			}
			if _, err := tx.ExecContext(ctx, sqlDeleteDocs, idSet(touched)); err != nil {
				return fmt.Errorf("refresh: %w", err)
			}
			return nil
		}()
		rows := wait()
		if err != nil {
			return err
		}
		meta := make([][]any, len(entries))
		for i, e := range entries {
			meta[i] = []any{e.id, boolInt(e.linkOnly), boolInt(e.nosnippet), unix(e.unavailableAfter), e.inlinks, int64(rows[i].hash)}
		}
		// OR REPLACE (the rows were deleted above: it replaces nothing) so that the statement
		// cannot abort halfway and opens no statement journal (see refreshChunk).
		if err := insertRows(ctx, tx, `INSERT OR REPLACE INTO docs (url_id, link_only, nosnippet, unavailable_after, inlinks, content_hash)`, 6, "", meta); err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		return writeFTS(ctx, tx, touched, rows)
	}()
	return n, last, err
}

// plan is what one dirty entry must become.
type plan struct {
	e           entry
	keep        bool // write e; else the entry is removed
	unknownText bool // a document whose text is neither folded nor in FTS5 yet: leave it
	queued      bool // the URL is queued (store.StateQueued): it will most likely be fetched
}

// planEntries reads what each entry of the id set must be now, in a few queries for the whole set.
func planEntries(ctx context.Context, tx writeTx, set string) (map[int64]*plan, error) {
	plans := map[int64]*plan{}
	rows, err := tx.QueryContext(ctx, sqlPlanEntries, set)
	if err != nil {
		return nil, fmt.Errorf("refresh: read entries: %w", err)
	}
	var needText []int64
	for rows.Next() {
		var id, fetchedAt int64
		var rawURL string
		var kind int
		var state string
		var hasDoc, hasStaged int
		var linkOnly, nosnippet, ua sql.NullInt64
		var title, body, headings sql.NullString
		if err := rows.Scan(&id, &rawURL, &fetchedAt, &kind, &state, &hasDoc, &linkOnly, &nosnippet, &ua, &hasStaged, &title, &body, &headings); err != nil {
			rows.Close()
			return nil, fmt.Errorf("refresh: read entries: %w", err)
		}
		isDoc := hasDoc == 1 && linkOnly.Int64 == 0
		p := &plan{e: entry{id: id, url: rawURL, linkOnly: !isDoc}, queued: store.State(state) == store.StateQueued}
		plans[id] = p
		switch {
		case !isDoc && (fetchedAt != 0 || kind != 0):
			continue // fetched but not searchable, or a sitemap: no entry
		case isDoc && hasStaged == 1:
			p.e.title, p.e.body, p.e.headings = title.String, body.String, headings.String
		case isDoc:
			needText = append(needText, id)
		}
		p.keep = true
		if isDoc {
			p.e.nosnippet, p.e.unavailableAfter = nosnippet.Int64 == 1, fromUnix(ua.Int64)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("refresh: read entries: %w", err)
	}
	if err := readFTSText(ctx, tx, needText, plans); err != nil {
		return nil, err
	}
	if err := readAnchors(ctx, tx, set, plans); err != nil {
		return nil, err
	}
	for _, p := range plans {
		if p.keep && p.e.linkOnly && p.e.inlinks == 0 {
			p.keep = false // nothing links to it any more: a link-only entry has nothing to stand on
		}
	}
	return plans, nil
}

// readFTSText fills the title and text of documents whose entry is rewritten for its anchors.
func readFTSText(ctx context.Context, tx writeTx, ids []int64, plans map[int64]*plan) error {
	if len(ids) == 0 {
		return nil
	}
	found := make(map[int64]bool, len(ids))
	rows, err := tx.QueryContext(ctx, sqlFTSText, idSet(ids))
	if err != nil {
		return fmt.Errorf("refresh: read text: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var title, body, headings string
		if err := rows.Scan(&id, &title, &body, &headings); err != nil {
			return fmt.Errorf("refresh: read text: %w", err)
		}
		plans[id].e.title, plans[id].e.body, plans[id].e.headings = title, body, headings
		found[id] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("refresh: read text: %w", err)
	}
	for _, id := range ids {
		if !found[id] {
			plans[id].unknownText = true
		}
	}
	return nil
}

// readAnchors fills each entry's anchor text (the distinct non-empty anchors of links to it, most
// used first, then in byte order, at most store.MaxAnchorsPerURL) and how many distinct pages
// link to it.
func readAnchors(ctx context.Context, tx writeTx, set string, plans map[int64]*plan) error {
	type anchor struct {
		text string
		n    int
	}
	type target struct {
		anchors []anchor
		index   map[string]int // anchors by text, once there are manyAnchors
		pages   int            // distinct from_id (rows come in from_id order)
		last    int64
	}
	const manyAnchors = 16
	targets := map[int64]*target{}
	rows, err := tx.QueryContext(ctx, sqlLinksTo, set)
	if err != nil {
		return fmt.Errorf("refresh: anchors: %w", err)
	}
	var id, from int64
	var text string
	for rows.Next() {
		if err := rows.Scan(&id, &from, &text); err != nil {
			rows.Close()
			return fmt.Errorf("refresh: anchors: %w", err)
		}
		t := targets[id]
		if t == nil {
			t = &target{}
			targets[id] = t
		}
		if t.pages == 0 || from != t.last {
			t.pages, t.last = t.pages+1, from
		}
		if text == "" {
			continue
		}
		i := -1
		if t.index != nil {
			if j, ok := t.index[text]; ok {
				i = j
			}
		} else {
			i = slices.IndexFunc(t.anchors, func(a anchor) bool { return a.text == text })
		}
		if i >= 0 {
			t.anchors[i].n++
			continue
		}
		t.anchors = append(t.anchors, anchor{text: text, n: 1})
		switch {
		case t.index != nil:
			t.index[text] = len(t.anchors) - 1
		case len(t.anchors) == manyAnchors:
			t.index = make(map[string]int, 2*manyAnchors)
			for j, a := range t.anchors {
				t.index[a.text] = j
			}
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("refresh: anchors: %w", err)
	}
	for id, t := range targets {
		p := plans[id]
		if p == nil {
			continue
		}
		p.e.inlinks = t.pages
		as := t.anchors
		slices.SortFunc(as, func(a, b anchor) int {
			if a.n != b.n {
				return b.n - a.n
			}
			return strings.Compare(a.text, b.text)
		})
		var b strings.Builder
		for i, a := range as {
			if i == store.MaxAnchorsPerURL {
				break
			}
			if b.Len() > 0 {
				b.WriteString(" \u2022 ")
			}
			b.WriteString(a.text)
		}
		p.e.anchors = b.String()
	}
	return nil
}

// queryIDs runs a query returning one integer column.
func queryIDs(ctx context.Context, tx writeTx, q string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
