package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/index/fts5"
)

// matcher finds and ranks the entries of one query across the tables of the index (fts.go):
// an entry matches when each of the query's required nodes is in its own text (fts) or in its
// anchor text (fts_anchors), and no exclusion is in either; its score (lower is better, as
// bm25's) is the weighted bm25 of its own text plus index.AnchorFieldFactor times that of its
// anchor text, where each matches the whole query (an entry whose nodes are split between them,
// mixed, is scored by its anchor text, for the nodes it holds), times the factors of
// index/ranking.go (link-only, proximity, phrase). Its own text is scored by the nodes bm25 may
// read, and by the head when there are none (head.go). A matcher is used once, by one
// goroutine.
type matcher struct {
	db       *sql.DB
	walk     int      // fullTextWalk, or what a test sets
	topWalk  int      // topWalk, or what a test sets
	match    string   // fts5.Match: the required part, and the exclusions within one table
	not      string   // fts5.Exclusions, "" when none
	any      string   // fts5.Any: any required node, for entries whose nodes are in both tables
	nodes    []string // the required nodes
	now      int64    // unix seconds: entries unavailable after it are hidden
	sites    string   // siteFilter's condition on urls.origin
	siteArgs []any
	nums     map[int64]int64 // entries' numbers (their rowids, nums.go) by URL ID, as read
	// textScores is, once rank has scored the entries' own text by an expression the query's
	// match implies, those scores, by URL ID: a ranked entry without one has no text that
	// matches the query. nil when rank did not (the head alone scored them).
	textScores map[int64]float64
}

// textMay reports whether the entry id's own text may match the query (textScores).
func (m *matcher) textMay(id int64) bool {
	_, scored := m.textScores[id]
	return m.textScores == nil || scored
}

// table is one of the index's FTS5 tables, and the rank function of its matches.
type table struct{ name, bm25 string }

var (
	ownTable    = table{"fts", "bm25(fts, " + bm25Weights + ")"}
	anchorTable = table{"fts_anchors", "bm25(fts_anchors, " + bm25AnchorWeight + ")"}
)

// visible keeps the entries shown at m.now, in the sites asked for.
const visible = `(docs.unavailable_after = 0 OR docs.unavailable_after > ?)`

// from is the FROM clause of a walk of t's matches with their docs rows, and their urls rows
// when the query names sites (siteFilter reads urls.origin): a urls row is a seek in the crawl
// database's largest table, at a hashed ID (store.IDOf), and 2,001 of them took 43-49 ms of the
// 1 ms such a walk took without them at 1,000,000 documents (sqlite3, 2026-11-27).
func (m *matcher) from(t table) string {
	from := t.name + ` JOIN docs ON docs.num = ` + t.name + `.rowid`
	if len(m.siteArgs) > 0 {
		from += ` JOIN urls ON urls.id = docs.url_id`
	}
	return from
}

// first reads the URL IDs of the first limit entries of t matching expr (in the order of their
// numbers, FTS5's: the order they were indexed in), visible and in the sites, with whether each
// is link-only.
func (m *matcher) first(ctx context.Context, t table, expr string, limit int) ([]int64, map[int64]bool, error) {
	q := `SELECT docs.url_id, docs.num, docs.link_only FROM ` + m.from(t) + ` WHERE ` + t.name + ` MATCH ? AND ` + visible + ` AND ` + m.sites + ` LIMIT ?`
	return m.entries(ctx, q, append(append([]any{expr, m.now}, m.siteArgs...), limit)...)
}

// entries runs q, which selects docs.url_id, docs.num and docs.link_only, and returns the URL
// IDs in the order read, with which are link-only, noting their numbers in m.nums.
func (m *matcher) entries(ctx context.Context, q string, args ...any) ([]int64, map[int64]bool, error) {
	var ids []int64
	linkOnly := map[int64]bool{}
	err := eachRow(ctx, m.db, q, args, func(r *sql.Rows) error {
		var id, num int64
		var lo bool
		if err := r.Scan(&id, &num, &lo); err != nil {
			return err
		}
		ids, m.nums[id] = append(ids, id), num
		if lo {
			linkOnly[id] = true
		}
		return nil
	})
	return ids, linkOnly, err
}

// seekEntries is how many entries of a match list one walk reads for the cost of one seek of
// an entry in it: a seek looks the term up in every segment and jumps to the entry through the
// doclist index (50-60 µs in a 98,000-entry list), a walk reads an entry in 0.15 µs (sqlite3
// 3.40, the 100,000-document store of indexbench, 2026-11-27).
const seekEntries = 400

// inEither reads which of ids match expr in either of tables (fts and fts_anchors when none
// are named): inEitherNums of their numbers.
func (m *matcher) inEither(ctx context.Context, expr string, ids []int64, entries, first int, tables ...table) (map[int64]bool, error) {
	out := map[int64]bool{}
	if expr == "" || len(ids) == 0 {
		return out, nil
	}
	nums, idOf, err := m.numsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	found, err := m.inEitherNums(ctx, expr, nums, entries, first, tables...)
	if err != nil {
		return nil, err
	}
	for num := range found {
		out[idOf[num]] = true
	}
	return out, nil
}

// inEitherNums reads which of the entries numbered nums match expr in either of tables (fts
// and fts_anchors when none are named): in one walk of expr's matches in each, from the lowest
// of nums to the highest (the unary + hides the rowid test: a seek per ID through a frequent
// word's list cost 10x more, issue 8; the range is FTS5's to stop at: the proximity boost of
// the and test, two words in nearly every entry, walked 1,000,000 entries' positions for 2,009
// candidates among the first 7,000 numbers, 850 ms),
// or, when entries (an estimate of how many entries match expr in each of tables; 0 unknown)
// is more than seekEntries times the numbers, by a seek per number, which then costs less than
// the walk. With first above 0, a walk reads at most that many of expr's first matches in each
// table, and an entry after them is taken as not matching.
func (m *matcher) inEitherNums(ctx context.Context, expr string, nums []int64, entries, first int, tables ...table) (map[int64]bool, error) {
	out := map[int64]bool{}
	if expr == "" || len(nums) == 0 {
		return out, nil
	}
	if len(tables) == 0 {
		tables = []table{ownTable, anchorTable}
	}
	seek := entries > seekEntries*len(nums)
	lo, hi := slices.Min(nums), slices.Max(nums)
	for _, t := range tables {
		q, args := `SELECT rowid FROM `+t.name+` WHERE `+t.name+` MATCH ? AND rowid BETWEEN ? AND ? AND +rowid `+inSet, []any{expr, lo, hi, idSet(nums)}
		switch {
		case seek:
			q, args = `SELECT rowid FROM `+t.name+` WHERE `+t.name+` MATCH ? AND rowid `+inSet, []any{expr, idSet(nums)}
		case first > 0:
			q, args = `SELECT num FROM (SELECT rowid AS num FROM `+t.name+` WHERE `+t.name+` MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?) WHERE num `+inSet,
				[]any{expr, lo, hi, first, idSet(nums)}
		}
		found, err := queryIDs(ctx, m.db, q, args...)
		if err != nil {
			return nil, err
		}
		for _, num := range found {
			out[num] = true
		}
	}
	return out, nil
}

// numsOf returns the numbers of those of ids that are entries, and the URL ID of each number.
func (m *matcher) numsOf(ctx context.Context, ids []int64) ([]int64, map[int64]int64, error) {
	var unknown []int64
	for _, id := range ids {
		if _, ok := m.nums[id]; !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		read, err := readNums(ctx, m.db, unknown)
		if err != nil {
			return nil, nil, err
		}
		for id, num := range read {
			m.nums[id] = num
		}
	}
	nums := make([]int64, 0, len(ids))
	idOf := make(map[int64]int64, len(ids))
	for _, id := range ids {
		if num, ok := m.nums[id]; ok {
			nums, idOf[num] = append(nums, num), id
		}
	}
	return nums, idOf, nil
}

// scores reads the rank function of t for those of ids that match expr in t: FTS5 walks its
// matches once (the unary + hides the rowid test: a seek per ID through a common word's whole
// match list costs more).
func (m *matcher) scores(ctx context.Context, t table, expr string, ids []int64) (map[int64]float64, error) {
	nums, idOf, err := m.numsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	byNum, err := queryMap[float64](ctx, m.db, `SELECT rowid, `+t.bm25+` FROM `+t.name+` WHERE `+t.name+` MATCH ? AND +rowid `+inSet, expr, idSet(nums))
	if err != nil {
		return nil, err
	}
	out := make(map[int64]float64, len(byNum))
	for num, score := range byNum {
		out[idOf[num]] = score
	}
	return out, nil
}

// rank returns the depth best entries matching the query with their scores, and how many
// entries match, counted up to index.MaxCount+1 in each table (the anchor text's to fewer when
// the own text's pass that already: anchoredLimit). want is how many entries the page
// asks for. When every node's entries fit in fullTextWalk, every match is ranked by bm25 over
// fts and fts_anchors; else the head answers first (head.go). The ranking reads only IDs and
// scores (bm25 reads positions, not text).
func (m *matcher) rank(ctx context.Context, p index.Parsed, depth, want int) (map[int64]float64, int, error) {
	own, ownLinkOnly, err := m.first(ctx, ownTable, m.match, index.MaxCount+1)
	if err != nil {
		return nil, 0, err
	}
	anchored, anchorLinkOnly, err := m.first(ctx, anchorTable, m.match, anchoredLimit(len(own), m.not, want))
	if err != nil {
		return nil, 0, err
	}
	linkOnly := ownLinkOnly
	for id := range anchorLinkOnly {
		linkOnly[id] = true
	}
	freq, err := m.frequencies(ctx, own)
	if err != nil {
		return nil, 0, err
	}
	if len(own) == 0 && len(anchored) == 0 {
		// A required node that no entry holds, in its text or its anchor text, leaves nothing
		// to match, mixed entries included: no other node's list is read.
		if none, err := m.heldNowhere(ctx, freq); err != nil || none {
			return nil, 0, err
		}
	}
	expr, fit, complete := scoring(m.match, m.nodes, freq, m.walk)
	// The head answers first when ranking every match would read more than the walk, or when
	// the entries matching are more than were read.
	head := !complete || len(own) > index.MaxCount
	mixed, mixedLinkOnly, err := m.mixed(ctx, union(own, anchored), freq, fit)
	if err != nil {
		return nil, 0, err
	}
	for id := range mixedLinkOnly {
		linkOnly[id] = true
	}
	matches := union(own, anchored, mixed)
	ranked := matches
	var ownScores, anchorScores map[int64]float64
	if head {
		heads, headScores, headLinkOnly, err := m.top(ctx, headTable, m.match, headCandidates)
		if err != nil {
			return nil, 0, err
		}
		anch, anchScores, anchLinkOnly, err := m.top(ctx, anchorTable, m.match, headCandidates)
		if err != nil {
			return nil, 0, err
		}
		for _, lo := range []map[int64]bool{headLinkOnly, anchLinkOnly} {
			for id := range lo {
				linkOnly[id] = true
			}
		}
		ranked, ownScores, anchorScores = union(heads, anch, mixed), headScores, anchScores
		if expr != "" { // the full text decides, below, among as many of its first matches
			ranked = union(ranked, own[:min(len(own), headCandidates)], anchored[:min(len(anchored), headCandidates)])
		}
		matches = union(matches, ranked)
	}
	if head && len(ranked) < want {
		// The head gives fewer than the page asks for: the query reads fts as a whole, its
		// mixed entries looked for in the whole text too, and ranks them by bm25 over fts of
		// the nodes that fit, or of all when none does; and every anchored match, when
		// anchoredLimit read fewer.
		if len(anchored) == headCandidates {
			more, moreLinkOnly, err := m.first(ctx, anchorTable, m.match, index.MaxCount+1)
			if err != nil {
				return nil, 0, err
			}
			for id := range moreLinkOnly {
				linkOnly[id] = true
			}
			anchored, matches = more, union(matches, more)
		}
		if !complete {
			more, moreLinkOnly, err := m.mixed(ctx, union(own, anchored), freq, nil)
			if err != nil {
				return nil, 0, err
			}
			for id := range moreLinkOnly {
				linkOnly[id] = true
			}
			mixed, matches = union(mixed, more), union(matches, more)
		}
		ranked = union(ranked, matches)
		if expr == "" {
			expr, ownScores, anchorScores = m.match, nil, nil
		}
	}
	// An exclusion holds for the whole entry: one table's match may be excluded by the other's.
	if m.not != "" {
		excluded, err := m.inEither(ctx, m.not, matches, 0, 0)
		if err != nil {
			return nil, 0, err
		}
		gone := func(id int64) bool { return excluded[id] }
		matches, ranked = slices.DeleteFunc(matches, gone), slices.DeleteFunc(slices.Clone(ranked), gone)
	}
	total := len(matches)
	if len(ranked) == 0 {
		return nil, total, nil
	}
	// Each table scores its full matches, in one walk of the query's matches (an AND walk skips
	// through a frequent word's list by the rarer word's). The few mixed entries are scored by
	// their anchor text alone, for the nodes it holds (an OR walk of the anchor text; one of the
	// pages' text would read a frequent word's whole list: 0.5-2.2 s at p95 for a frequent and a
	// rare word at 100,000 documents).
	if expr != "" {
		if ownScores, err = m.scores(ctx, ownTable, expr, ranked); err != nil {
			return nil, 0, err
		}
		m.textScores = ownScores
	}
	if anchorScores == nil {
		if anchorScores, err = m.scores(ctx, anchorTable, m.match, ranked); err != nil {
			return nil, 0, err
		}
	}
	if mixed = slices.DeleteFunc(mixed, func(id int64) bool { return !slices.Contains(ranked, id) }); len(mixed) > 0 {
		sc, err := m.scores(ctx, anchorTable, m.any, mixed)
		if err != nil {
			return nil, 0, err
		}
		for id, v := range sc {
			anchorScores[id] = v
		}
	}
	// The boosts: no expression (""), no entry boosted. Looked for in the head when no node may
	// be read in fts (an AND walk there skips by the rarest node's list, which then fits), in
	// each table's first topWalk matches: the head's candidates are among the query's first
	// topWalk matches there (top), so among its first topWalk near each other or as a phrase
	// too, and the walk of words in every entry's URL (test p, at 1,000,000 documents) cost
	// 540 ms of positions.
	boostTables, boostWalk := []table{ownTable, anchorTable}, 0
	if expr == "" {
		boostTables, boostWalk = []table{headTable, anchorTable}, m.topWalk
	}
	nearExpr, _ := fts5.Near(p, index.ProximityWindow)
	near, err := m.inEither(ctx, nearExpr, ranked, 0, boostWalk, boostTables...)
	if err != nil {
		return nil, 0, fmt.Errorf("boost: %w", err)
	}
	// The whole query as a phrase holds its words near each other too, so only the entries
	// near holds are looked for: none, and the phrase's list is not read.
	phraseExpr, _ := fts5.Phrase(p)
	phraseIDs := ranked
	if nearExpr != "" {
		phraseIDs = slices.DeleteFunc(slices.Clone(ranked), func(id int64) bool { return !near[id] })
	}
	phrase, err := m.inEither(ctx, phraseExpr, phraseIDs, 0, boostWalk, boostTables...)
	if err != nil {
		return nil, 0, fmt.Errorf("boost: %w", err)
	}
	type scored struct {
		id    int64
		score float64
	}
	// The two tables' bm25 scores are on different scales: each measures how rare a word is in
	// its own table, and a word in most pages' text (a site's own name, or every word of a
	// small site) counts for next to nothing there, while it may be rare in anchor text. The
	// anchor text's weighted scores are scaled so that the best is at most
	// index.AnchorFieldCap times the best of the pages' own (when any page's own text matches):
	// anchor text refines the ranking of the text's matches, it does not outweigh them.
	scale := 1.0
	if bestOwn, bestAnchor := best(ownScores), index.AnchorFieldFactor*best(anchorScores); bestOwn < 0 && bestAnchor < index.AnchorFieldCap*bestOwn {
		scale = index.AnchorFieldCap * bestOwn / bestAnchor
	}
	all := make([]scored, 0, len(ranked))
	for _, id := range ranked {
		score := ownScores[id] + index.AnchorFieldFactor*scale*anchorScores[id]
		if linkOnly[id] {
			score *= index.LinkOnlyFactor
		}
		if near[id] {
			score *= 1 + index.ProximityBoost
		}
		if phrase[id] {
			score *= 1 + index.PhraseBoost
		}
		all = append(all, scored{id, score})
	}
	slices.SortFunc(all, func(a, b scored) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	out := make(map[int64]float64, min(depth, len(all)))
	for _, s := range all[:min(depth, len(all))] {
		out[s.id] = s.score
	}
	return out, total, nil
}

// anchoredLimit is how many of the query's first matches in the anchor text rank reads, given
// how many of its first matches in the entries' own text it read (own), its exclusions and the
// entries the page asks for: index.MaxCount+1, as many as it counts; or headCandidates when own
// is more than index.MaxCount, the query excludes nothing and the page asks for no more than
// headCandidates. The count is then a lower bound already, mixed entries are not looked for,
// and the head's path ranks the first headCandidates alone (a docs row each, a seek in a
// match list spread over the whole index); rank reads the rest when the head gives fewer than
// the page asks for.
func anchoredLimit(own int, not string, want int) int {
	if own > index.MaxCount && not == "" && want <= headCandidates {
		return headCandidates
	}
	return index.MaxCount + 1
}

// mixedCandidates bounds the entries mixed looks at, as the count of each table's matches is
// bounded: its cost is a walk of each required node's matches in each table, whatever their
// number (with 256, a tenth of the matches of two-word queries were missed at 100,000 documents).
const mixedCandidates = index.MaxCount + 1

// mixed returns the entries, other than found, whose required nodes are some in their own text
// and the rest in their anchor text, with which are link-only: among the first mixedCandidates
// entries whose anchor text holds any node (an entry matching only this way holds a node
// there), in ID order, when found has no more than index.MaxCount (else the count is a lower
// bound already, and the ranking looks at candidates). A node is looked for in fts, or, when fit
// is not nil and says it does not fit in the walk (head.go), in the head: an entry that holds
// such a node in its body only, and the other nodes in its anchor text only, is then not found.
// freq estimates each node's entries (frequencies): the nodes are looked for the rarest first, so
// that the candidates are few, or none (a word no page says), before a frequent node's list is
// read, and a node whose list is long is looked for by a seek per candidate (inEither).
//
// The candidates are entry numbers (candidates), and only those left after the nodes are looked
// for have their docs rows read (survivors): a docs row per candidate, a seek each, was half
// of mixed's CPU for three words at 200,000 documents.
func (m *matcher) mixed(ctx context.Context, found []int64, freq []int, fit []bool) ([]int64, map[int64]bool, error) {
	if len(m.nodes) < 2 || len(found) > index.MaxCount {
		return nil, nil, nil
	}
	cands, err := m.candidates(ctx)
	if err != nil {
		return nil, nil, err
	}
	seen := map[int64]bool{}
	for _, id := range found {
		if num, ok := m.nums[id]; ok {
			seen[num] = true
		}
	}
	cands = slices.DeleteFunc(cands, func(num int64) bool { return seen[num] })
	for _, i := range rarestFirst(freq) {
		if len(cands) == 0 {
			break
		}
		// freq estimates the node's list in fts alone: its lists in the head and the anchor
		// text are walked (a frequent word of the body may be in few titles).
		text, entries := ownTable, freq[i]
		if fit != nil && !fit[i] {
			text, entries = headTable, 0
		}
		holds, err := m.inEitherNums(ctx, m.nodes[i], cands, entries, 0, text)
		if err != nil {
			return nil, nil, err
		}
		anchors, err := m.inEitherNums(ctx, m.nodes[i], cands, 0, 0, anchorTable)
		if err != nil {
			return nil, nil, err
		}
		cands = slices.DeleteFunc(cands, func(num int64) bool { return !holds[num] && !anchors[num] })
	}
	return m.survivors(ctx, cands)
}

// candidates returns the numbers of the first mixedCandidates entries whose anchor text holds
// any required node, in number order: without sites, FTS5's walk alone (hidden entries take a
// place among them, and survivors drops them); with sites, first's walk with the docs and urls
// rows of each, which keeps the entries shown and in the sites.
func (m *matcher) candidates(ctx context.Context) ([]int64, error) {
	if len(m.siteArgs) == 0 {
		return queryIDs(ctx, m.db, `SELECT rowid FROM fts_anchors WHERE fts_anchors MATCH ? LIMIT ?`, m.any, mixedCandidates)
	}
	ids, _, err := m.first(ctx, anchorTable, m.any, mixedCandidates)
	if err != nil {
		return nil, err
	}
	nums, _, err := m.numsOf(ctx, ids) // first noted every number: no read
	return nums, err
}

// survivors returns the URL IDs of the visible entries numbered nums, in number order, with
// which are link-only, and notes their numbers in m.nums.
func (m *matcher) survivors(ctx context.Context, nums []int64) ([]int64, map[int64]bool, error) {
	if len(nums) == 0 {
		return nil, nil, nil
	}
	return m.entries(ctx, `SELECT docs.url_id, docs.num, docs.link_only FROM docs WHERE docs.num `+inSet+` AND `+visible+` ORDER BY docs.num`,
		idSet(nums), m.now)
}

// heldNowhere reports whether some required node is in no entry's text (freq, frequencies'
// estimates, says 0) nor in any entry's anchor text: one seek in each such node's anchor list.
func (m *matcher) heldNowhere(ctx context.Context, freq []int) (bool, error) {
	for i, n := range m.nodes {
		if freq[i] > 0 {
			continue
		}
		held, err := queryIDs(ctx, m.db, `SELECT rowid FROM fts_anchors WHERE fts_anchors MATCH ? LIMIT 1`, n)
		if err != nil {
			return false, err
		}
		if len(held) == 0 {
			return true, nil
		}
	}
	return false, nil
}

// best is the lowest (best) of scores, 0 when there are none.
func best(scores map[int64]float64) float64 {
	b := 0.0
	for _, v := range scores {
		b = min(b, v)
	}
	return b
}

// union returns the IDs of the lists, each once, in the order first seen.
func union(lists ...[]int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, l := range lists {
		for _, id := range l {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}
