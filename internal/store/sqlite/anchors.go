package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/fractle/mandelbot/internal/store"
)

// Anchor text is rewritten in generations (issue 26 part 2), driven by the link graph's merge
// (linklog.go): each merge takes its targets in key order, reads how many distinct pages link to
// each now (unless the links it changed cannot have made the entry due: inlinksBound), and
// rewrites a target's entry (its docs row and fts_anchors row) only when that
// count has reached twice, or fallen to half, the count of its last rewrite (docs.inlinks), or
// when the entry has no anchor row yet (a document fetched for the first time, or a new link-only
// entry): over a crawl an entry's anchor row is written O(log inlinks) times, and between two
// rewrites it lacks at most half of its links. The targets a merge leaves behind, and the
// link-only entries of URLs still queued (most will be fetched, and an entry written now would
// only be replaced then: issue 8), wait in dirty, written in key order; RefreshIndex merges the
// whole log with every target left in dirty, then rewrites every dirty entry exactly, planning
// beside its writes (rewriteDirty). The
// PostgreSQL store follows the same rule (internal/store/postgres/anchors.go).

// sqlDirtyFrom reads the next dirty entries in key order, for RefreshIndex; sqlMarkDirty puts
// entries in dirty (the head of a multi-row insert of url_id, lo, hi).
const (
	sqlDirtyFrom = `SELECT url_id FROM dirty WHERE url_id >= ? ORDER BY url_id LIMIT ?`
	sqlMarkDirty = `INSERT OR REPLACE INTO dirty (url_id, lo, hi)`
)

// drainChunks is how many chunks of indexChunk dirty entries RefreshIndex rewrites in one
// transaction: as many as a merge's pass holds log rows on average (mergeLinksRows/2). It runs
// when the crawl is over, so no commit waits behind it, and a transaction writes each page of
// docs and dirty it touches once, and adds one segment to fts_anchors: with 3 chunks per
// transaction, where the final merge rewrote each pass's targets in one, a crawl of 1,000,000
// pages wrote 19.3 times its store rather than 13.4, and its catch-up took 202 s, not 152.
const drainChunks = mergeLinksRows / indexChunk / 2

// planAhead is how many planned chunks wait for the writer (planDirty).
const planAhead = 2

// rewriteDirty rewrites every dirty entry exactly, in key order, drainChunks chunks of indexChunk
// entries per transaction of the index database, and returns how many it wrote; the caller
// holds indexMu. The entries are planned (planEntries, the larger part of a rewrite's reads) on
// a read connection, up to planAhead chunks ahead of the writer (planDirty), so that the
// catch-up at the end of a crawl, which rewrites nearly every entry, runs on two cores: what
// the writer writes (its entries' docs, dirty and anchor rows, and numbers for new entries) is
// none of what the next chunks' plans read, which read the committed store.
func (s *Store) rewriteDirty(ctx context.Context) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	planned := make(chan plannedChunk, planAhead)
	go s.planDirty(ctx, planned)
	defer func() {
		cancel()
		for range planned { // the planner stops at its next send
		}
	}()
	total := 0
	for more := true; more; {
		err := s.indexTxLocked(ctx, func(ctx context.Context, tx writeTx, _ *func(context.Context, writeTx) error) error {
			n, err := s.writeGeneration(ctx, tx, true, func(yield func(plannedChunk, error) bool) {
				for range drainChunks {
					c, ok := <-planned
					if more = ok; !ok || !yield(c, c.err) || c.err != nil {
						return
					}
				}
			})
			total += n
			return err
		})
		if err != nil {
			return total, fmt.Errorf("sqlite: refresh index: %w", err)
		}
	}
	return total, nil
}

// plannedChunk is up to indexChunk entries, in key order, and what each is and must become; or
// the error that stopped the planner.
type plannedChunk struct {
	ids   []int64
	plans map[int64]*plan
	err   error
}

// planDirty plans every dirty entry for an exact rewrite, in key order, a chunk of indexChunk
// at a time sent on out, on a connection of the read pool; it closes out when done, after an
// error, or once ctx ends.
func (s *Store) planDirty(ctx context.Context, out chan<- plannedChunk) {
	defer close(out)
	send := func(c plannedChunk) bool {
		select {
		case out <- c:
			return c.err == nil
		case <-ctx.Done():
			return false
		}
	}
	conn, err := s.read.Conn(ctx)
	if err != nil {
		send(plannedChunk{err: err})
		return
	}
	defer conn.Close()
	for from := int64(math.MinInt64); ; {
		ids, err := queryIDs(ctx, conn, sqlDirtyFrom, from, indexChunk)
		if err != nil || len(ids) == 0 {
			if err != nil {
				send(plannedChunk{err: err})
			}
			return
		}
		plans, err := planEntries(ctx, conn, ids, true, nil)
		if !send(plannedChunk{ids: ids, plans: plans, err: err}) || len(ids) < indexChunk || ids[len(ids)-1] == math.MaxInt64 {
			return
		}
		from = ids[len(ids)-1] + 1
	}
}

// rewriteTargets decides, then writes, the entries of ids (sorted by key) in tx, and returns how
// many it wrote: only those due (store.AnchorsDue, or with no anchor row yet), the others left
// in dirty (rewriteDirty writes every one, exactly). Writing an entry:
//
//   - a document (folded) gets its inlinks and its anchor text;
//   - a URL never fetched becomes (or stays) a link-only entry while links point to it: its
//     URL's words in fts, its anchor text in fts_anchors (unless it is queued and no entry yet: it
//     waits in dirty, its document most likely coming first);
//   - any other entry leaves the index: a link-only entry nothing links to any more, and a URL
//     fetched without a document (noindex, not 2xx, a sitemap; or its document not folded yet,
//     when the fold's touch brings it back).
//
// The entries are read indexChunk at a time, and written together: reads and deletes are one
// statement for the whole set, and each FTS5 table's rows are written last, once, in rowid
// order, so that a merge adds one segment to each (FTS5 writes its pending terms out whenever a
// rowid is lower than the last: writeOwn).
func (s *Store) rewriteTargets(ctx context.Context, tx writeTx, ids []int64, changes map[int64]linkChanges) (int, error) {
	return s.writeGeneration(ctx, tx, false, func(yield func(plannedChunk, error) bool) {
		for chunk := range slices.Chunk(ids, indexChunk) {
			plans, err := planEntries(ctx, tx, chunk, false, changes)
			if !yield(plannedChunk{ids: chunk, plans: plans}, err) || err != nil {
				return
			}
		}
	})
}

// writeGeneration writes in tx what the entries of each planned chunk must become (exactly, or
// by the power-of-two rule), a chunk's dirty and docs rows as it comes and the FTS5 rows last,
// and returns how many entries it wrote.
func (s *Store) writeGeneration(ctx context.Context, tx writeTx, exact bool, chunks iter.Seq2[plannedChunk, error]) (int, error) {
	nums, err := newNumbers(ctx, tx)
	if err != nil {
		return 0, err
	}
	g := generation{exact: exact, nums: nums}
	for c, err := range chunks {
		if err != nil {
			return 0, err
		}
		g.apply(c.ids, c.plans)
		if err := g.writeRows(ctx, tx); err != nil {
			return 0, err
		}
	}
	return g.written, g.write(ctx, tx)
}

// generation is what rewriteTargets decided, to write.
type generation struct {
	exact   bool
	nums    *numbers // the numbers of new link-only entries
	written int      // entries written
	// A chunk's rows of dirty and docs, written once it is decided (writeRows): a pass of a
	// merge (mergeLinksRows log rows at most) may have a hundred thousand targets.
	pending     [][]any  // left in dirty
	done        []int64  // leaving dirty
	meta        [][]any  // docs rows of the entries kept
	gone        []int64  // entries removed
	drop        []int64  // the fts rows (numbers) of the entries removed
	own         []ownRow // new link-only entries' fts rows
	dropAnchors []int64  // fts_anchors rows removed or replaced
	anchors     []anchorRow
}

// apply adds to g what each entry of ids must become, from its plan (planEntries).
func (g *generation) apply(ids []int64, plans map[int64]*plan) {
	for _, id := range ids {
		p, ok := plans[id]
		if !ok {
			g.done = append(g.done, id) // an unknown URL
			continue
		}
		linkOnly := !p.wasDoc && !p.fetched && p.inlinks > 0
		switch {
		case p.deferred:
			g.pending = append(g.pending, []any{id, nil, nil})
			continue
		case p.bounded:
			g.pending = append(g.pending, []any{id, p.lo, p.hi})
			continue
		case !g.exact && p.hadAnchors && (p.wasDoc || linkOnly) && !store.AnchorsDue(p.at, p.inlinks):
			g.pending = append(g.pending, []any{id, p.inlinks, p.inlinks})
			continue
		}
		g.done = append(g.done, id)
		num := p.num
		switch {
		case p.wasDoc:
			g.meta = append(g.meta, []any{id, 0, p.nosnippet, p.unavailableAfter, p.inlinks, p.hash, num})
		case linkOnly:
			if !p.had {
				num = g.nums.next()
				g.own = append(g.own, linkOnlyRow(id, num, p.url))
			}
			g.meta = append(g.meta, []any{id, 1, 0, 0, p.inlinks, 0, num})
		default:
			if p.had {
				g.gone, g.drop = append(g.gone, id), append(g.drop, num)
			}
			if p.hadAnchors {
				g.dropAnchors = append(g.dropAnchors, num)
			}
			continue
		}
		if p.hadAnchors {
			g.dropAnchors = append(g.dropAnchors, num)
		}
		g.anchors = append(g.anchors, anchorRow{num: num, text: p.anchors})
	}
}

// writeRows writes the dirty and docs rows of the chunk g decided last in tx, and forgets them.
func (g *generation) writeRows(ctx context.Context, tx writeTx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE url_id `+inSet, idSet(g.done)); err != nil {
		return fmt.Errorf("anchors: %w", err)
	}
	if err := insertRows(ctx, tx, sqlMarkDirty, 3, g.pending); err != nil {
		return fmt.Errorf("anchors: dirty entries: %w", err)
	}
	if _, err := tx.ExecContext(ctx, sqlDeleteDocs, idSet(g.gone)); err != nil {
		return fmt.Errorf("anchors: %w", err)
	}
	// OR REPLACE: the statement cannot abort halfway, and opens no statement journal (see writeOwn).
	if err := insertRows(ctx, tx, sqlInsertDocs, 7, g.meta); err != nil {
		return fmt.Errorf("anchors: %w", err)
	}
	g.written += len(g.meta)
	g.pending, g.done, g.meta, g.gone = g.pending[:0], g.done[:0], g.meta[:0], g.gone[:0]
	return nil
}

// write writes the FTS5 rows of what g decided in tx (writeRows wrote the others): the own text
// of new link-only entries, then the anchor rows, each table's rows once, in rowid order.
func (g *generation) write(ctx context.Context, tx writeTx) error {
	if err := writeOwn(ctx, tx, g.drop, g.own); err != nil {
		return err
	}
	return writeAnchors(ctx, tx, g.dropAnchors, g.anchors)
}

// plan is what one target entry is now, and what it must become.
type plan struct {
	url              string
	had, wasDoc      bool  // it is an entry (a docs row); a document's
	num              int64 // its number, if had (nums.go)
	at               int   // its inlinks when its anchor text was last written (docs.inlinks)
	fetched          bool  // fetched, or a sitemap: no link-only entry
	queued           bool  // the URL is queued (store.StateQueued): it will most likely be fetched
	nosnippet, hash  int64 // a document's docs columns, kept
	unavailableAfter int64
	inlinks          int    // distinct pages linking to it now
	anchors          string // its anchor text now (readAnchors)
	hadAnchors       bool   // it has an fts_anchors row
	deferred         bool   // a queued URL that is no entry, left in dirty unread (planEntries)
	// bounded: its inlinks are known to lie in lo..hi, where none is due (inlinksBound), and
	// its links were left unread. lo and hi are also what dirty says of it, if known.
	bounded, known bool
	lo, hi         int
}

// inlinksBound reports the bounds of a target's distinct linking pages after a merge that made
// changes to its links, from the bounds before it (lo..hi), and whether the entry, whose anchor
// text was written at at, is due at none of them (store.AnchorsDue): every count in lo..hi is
// above 0, above half of at and below twice at. An entry not in dirty has lo = hi = at (its last
// rewrite counted them, and no merge changed its links since without rewriting it or leaving it
// in dirty with its bounds), so a merge that adds a few links to a target with many reads none
// of them (issue 26: a merge's reads would grow with its targets' inlinks).
func inlinksBound(at, lo, hi int, c linkChanges) (newLo, newHi int, notDue bool) {
	newLo, newHi = lo-c.removes, hi+c.adds
	return newLo, newHi, at > 0 && newLo > 0 && 2*newLo > at && newHi < 2*at
}

// planEntries reads what each entry of ids is and what it must be now, in a few queries for the
// whole set. Unless exact, a queued URL that is no entry is deferred (plan.deferred) and only its
// URL's row is read: whether links point to it is for the rewrite that writes it (such URLs
// were 40% of a refresh's entries at 200,000 pages, 82% at 1,000,000; issue 8).
//
// A document's entry is decided from the index database alone (planDocs): its URL's row in the
// crawl database, at a random page of a table that outgrows its cache (urls is in discovery
// order, the targets in hash order), is read only for the other targets (issue 26: those reads
// were the largest term of a merge's CPU that grew with the crawl).
func planEntries(ctx context.Context, tx querier, ids []int64, exact bool, changes map[int64]linkChanges) (map[int64]*plan, error) {
	plans, err := planDocs(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	var rest []int64
	for _, id := range ids {
		if plans[id] == nil {
			rest = append(rest, id)
		}
	}
	if err := planURLs(ctx, tx, rest, exact, plans); err != nil {
		return nil, err
	}
	var read, nums []int64
	idOf := map[int64]int64{}
	for _, id := range ids {
		if p := plans[id]; p != nil && !p.deferred && p.had {
			nums, idOf[p.num] = append(nums, p.num), id
		}
	}
	err = eachRow(ctx, tx, sqlHadAnchors, []any{idSet(nums)}, func(r *sql.Rows) error {
		var num int64
		if err := r.Scan(&num); err != nil {
			return err
		}
		if p := plans[idOf[num]]; p != nil {
			p.hadAnchors = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("anchors: read anchors: %w", err)
	}
	for _, id := range ids {
		p := plans[id]
		if p == nil || p.deferred {
			continue
		}
		// Left in dirty whatever its count: an entry with anchor text (a document's, or a
		// link-only one's while links point to it) whose count cannot be due.
		if c, ok := changes[id]; ok && !exact && p.known && p.hadAnchors && (p.wasDoc || !p.fetched) {
			if lo, hi, notDue := inlinksBound(p.at, p.lo, p.hi, c); notDue {
				p.bounded, p.lo, p.hi = true, lo, hi
				continue
			}
		}
		read = append(read, id)
	}
	if len(read) == 0 {
		return plans, nil
	}
	if err := readAnchors(ctx, tx, idSet(read), plans); err != nil {
		return nil, err
	}
	return plans, nil
}

// planDocs reads the document entries among ids (docs rows not link-only) and their dirty rows,
// from the index database only. A document was fetched, so nothing of its URL's row decides
// what its entry becomes (decide): it stays a document entry, written by the power-of-two rule,
// until a fold removes or replaces it. Every entry has a URL row (urls rows are never removed).
func planDocs(ctx context.Context, tx querier, ids []int64) (map[int64]*plan, error) {
	plans := make(map[int64]*plan, len(ids))
	err := eachRow(ctx, tx, sqlPlanDocs, []any{idSet(ids)}, func(r *sql.Rows) error {
		var id int64
		var inDirty bool
		var lo, hi sql.NullInt64
		p := &plan{had: true, wasDoc: true, fetched: true}
		if err := r.Scan(&id, &p.nosnippet, &p.unavailableAfter, &p.hash, &p.num, &p.at, &inDirty, &lo, &hi); err != nil {
			return err
		}
		p.setBounds(inDirty, lo, hi)
		plans[id] = p
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("anchors: read documents: %w", err)
	}
	return plans, nil
}

// planURLs adds to plans the entries of ids read from their URL rows, with their docs and dirty
// rows: an id without a URL row gets no plan.
func planURLs(ctx context.Context, tx querier, ids []int64, exact bool, plans map[int64]*plan) error {
	if len(ids) == 0 {
		return nil
	}
	err := eachRow(ctx, tx, sqlPlanEntries, []any{idSet(ids)}, func(r *sql.Rows) error {
		var id, fetchedAt int64
		p := &plan{}
		var kind int
		var state string
		var inDirty bool
		var linkOnly, nosnippet, ua, hash, num, at, lo, hi sql.NullInt64
		if err := r.Scan(&id, &p.url, &fetchedAt, &kind, &state, &p.had, &linkOnly, &nosnippet, &ua, &hash, &num, &at,
			&inDirty, &lo, &hi); err != nil {
			return err
		}
		p.wasDoc = p.had && linkOnly.Int64 == 0
		p.fetched, p.queued = fetchedAt != 0 || kind != 0, store.State(state) == store.StateQueued
		p.nosnippet, p.unavailableAfter, p.hash, p.num, p.at = nosnippet.Int64, ua.Int64, hash.Int64, num.Int64, int(at.Int64)
		p.deferred = !exact && p.queued && !p.had && !p.fetched
		p.setBounds(inDirty, lo, hi)
		plans[id] = p
		return nil
	})
	if err != nil {
		return fmt.Errorf("anchors: read entries: %w", err)
	}
	return nil
}

// setBounds sets what p's inlinks are known to lie in (plan.lo, plan.hi), from its dirty row:
// none (inDirty false) means its count at its last rewrite; a row without bounds, unknown.
func (p *plan) setBounds(inDirty bool, lo, hi sql.NullInt64) {
	switch {
	case !inDirty:
		p.lo, p.hi, p.known = p.at, p.at, true
	case lo.Valid && hi.Valid:
		p.lo, p.hi, p.known = int(lo.Int64), int(hi.Int64), true
	}
}

// readAnchors fills each entry's anchor text (the distinct non-empty anchors of links to it, most
// used first, then in byte order, at most store.MaxAnchorsPerURL) and how many distinct pages
// link to it.
func readAnchors(ctx context.Context, tx querier, set string, plans map[int64]*plan) error {
	return readAnchorsOf(ctx, tx, sqlLinksTo, []any{set}, plans)
}

// readAnchorsOf is readAnchors of the links query reads (to_id, from_id, anchor, ordered by to_id
// and from_id), with args.
func readAnchorsOf(ctx context.Context, tx querier, query string, args []any, plans map[int64]*plan) error {
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
	var id, from int64
	var text string
	err := eachRow(ctx, tx, query, args, func(r *sql.Rows) error {
		if err := r.Scan(&id, &from, &text); err != nil {
			return err
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
			return nil
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
			return nil
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
		return nil
	})
	if err != nil {
		return fmt.Errorf("anchors: links: %w", err)
	}
	for id, t := range targets {
		p := plans[id]
		if p == nil {
			continue
		}
		p.inlinks = t.pages
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
		p.anchors = b.String()
	}
	return nil
}
