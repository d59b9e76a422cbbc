package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/index/fts5"
)

// The head index (issue 26 part 3): queries whose cost does not grow with a word's frequency.
//
// FTS5's bm25 reads, for every phrase of the query, the whole list of the entries that hold it
// (it counts them for the phrase's IDF) in every statement that calls it, and a seek per entry
// starts that count again: a word in most of 100,000 entries took 116 ms to count and 13 s to
// score 1,000 entries by seeks (modernc, 2026-11-27). So a query never scores fts by a phrase in
// more entries than it can read (fullTextWalk): it estimates how many entries hold each of its
// required nodes (frequencies), scores by bm25 over fts only the rarest nodes that fit in the
// walk, and takes its candidates from the head first:
//
//   - head (fts.go) holds each entry's title, headings, URL words and the identifier parts of
//     the title and headings, fts_anchors its anchor text: a small part of the text, whose
//     lists are short. The best headCandidates entries of each, by the table's own bm25, are
//     the candidates (top).
//   - When some node fits in the walk, the full text decides: the candidates, with the first
//     headCandidates entries whose text matches (a sample in index order), are ranked by
//     bm25 over fts of the nodes that fit, plus their anchor text's. A node left out still has
//     to match; it is the query's most frequent, whose IDF is its lowest (FTS5 gives a word in
//     more than half the entries an IDF of 10⁻⁶).
//   - When no node fits (one frequent word), the head's and the anchor text's bm25 rank the
//     candidates, each with FTS5's own statistics over its table, and the body counts for
//     nothing.
//   - Either way, an entry whose nodes are split between its text and its anchor text (mixed)
//     has a node that does not fit looked for in its head, not its text.
//   - Only when the candidates are fewer than the page asks for does the query read fts as a
//     whole: mixed entries are looked for in the whole text, and the candidates and the first
//     entries whose text matches are ranked by bm25 over fts (of the nodes that fit, or of
//     all when none does), so a page found by its body only is still found.
//
// When every node fits and the query's matches are all read (every query on a site of a few
// thousand pages), nothing of this applies: every match is ranked by bm25 over fts and
// fts_anchors, as before the head existed.

// headCandidates bounds the entries a query takes from the head, and from the anchor text, by
// their bm25 there.
const headCandidates = 1000

// topWalk bounds how many matches of the head, or of the anchor text, top ranks by bm25: their
// first in number order (index order: nums.go), of which it keeps the best headCandidates. bm25
// reads each match's column sizes, a seek in the table's docsize rows (2.5 µs a match at
// 1,000,000 documents, modernc, 2026-11-28), so a word in every entry's URL words (test, in each
// of indexbench's 1,110,514 head entries; html or www on the web) cost a query seconds. A
// crawl numbers entries in the order it folds pages, which a breadth-first crawl reaches
// from its seeds first, so the first matches are the pages nearest the seeds, not a random
// sample: the same bet a web index makes when it orders its lists by a static rank and stops
// early.
const topWalk = 4 * headCandidates

// fullTextWalk bounds how many entries' positions one query's bm25 over fts reads, summed over
// the nodes it scores: each is read twice (FTS5 counts a phrase's entries, then walks them).
const fullTextWalk = 20_000

// frequencySample is how many matches of a node frequencies reads: a node in fewer entries is
// counted exactly.
const frequencySample = 1000

// headTable is the head index, and its rank function: the weights of index/ranking.go for its
// columns (title, headings, URL words, identifier parts).
var headTable = table{"head", fmt.Sprintf("bm25(head, %g, %g, %g, %g)", index.WeightTitle, index.WeightHeadings,
	index.WeightURLWords, index.WeightIdentifierParts)}

// frequencies estimates how many entries' own text holds each node: exactly when fewer than
// frequencySample do, else frequencySample times the highest entry number over the number of
// the node's frequencySample-th match. Numbers are given in index order (nums.go), so a word's
// matches are spread over them about evenly; the estimate only chooses which nodes bm25 reads.
// own is the query's first matches (matcher.first): when the query is one node, without
// exclusions and not limited to sites, they are its count if there are no more than
// index.MaxCount.
func (m *matcher) frequencies(ctx context.Context, own []int64) ([]int, error) {
	if len(m.nodes) == 1 && m.not == "" && len(m.siteArgs) == 0 && len(own) <= index.MaxCount {
		return []int{len(own)}, nil
	}
	out := make([]int, len(m.nodes))
	last := int64(0)
	for i, n := range m.nodes {
		var at sql.NullInt64
		if err := m.db.QueryRowContext(ctx, sqlSample, n, frequencySample).Scan(&out[i], &at); err != nil {
			return nil, err
		}
		if out[i] < frequencySample {
			continue
		}
		if last == 0 {
			var l sql.NullInt64
			if err := m.db.QueryRowContext(ctx, sqlLastNum).Scan(&l); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, err
			}
			last = l.Int64
		}
		if at.Int64 > 0 {
			out[i] = int(int64(frequencySample) * max(last, at.Int64) / at.Int64)
		}
	}
	return out, nil
}

// sqlSample reads how many of the first entries (up to a limit) match a node in fts, and the
// number of the last of them, in one row: reading the numbers themselves, a row each through
// database/sql, cost 3-4% more CPU in queries of two and three words at 200,000 documents.
const sqlSample = `SELECT count(*), max(rowid) FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)`

// scoring returns the expression whose bm25 over fts ranks the query, and which nodes it holds
// (fit): match itself when every node's entries fit in walk (fullTextWalk) together (complete),
// else the rarest nodes that fit, ANDed, or "" when not even the rarest fits.
func scoring(match string, nodes []string, freq []int, walk int) (expr string, fit []bool, complete bool) {
	fit = make([]bool, len(nodes))
	var parts []string
	sum := 0
	for _, i := range rarestFirst(freq) {
		if sum += freq[i]; sum > walk {
			break
		}
		fit[i], parts = true, append(parts, nodes[i])
	}
	switch len(parts) {
	case len(nodes):
		return match, fit, true
	case 0:
		return "", fit, false
	}
	return strings.Join(parts, " AND "), fit, false
}

// rarestFirst returns the indexes of freq (the nodes' estimated entries, frequencies) from the
// rarest node to the most frequent, nodes as frequent in the query's order.
func rarestFirst(freq []int) []int {
	order := make([]int, len(freq))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(freq[a], freq[b]) })
	return order
}

// top reads the URL IDs of the best limit entries of t matching expr by t's rank function
// (visible, in the sites), among its first m.topWalk matches (topWalk), in that order, with
// their scores and which are link-only. FTS5 ranks the matches and cuts them at limit before a
// docs row is read (cutTop): the docs row of every match, a seek each, cost more than their
// bm25 (issue 26 part 3: 48% of a frequent word's CPU at 1,000,000 documents went to top).
// Only when the query names sites (whose urls rows the entries must be read to test), or when
// hidden entries are among the cut and leave fewer than limit, are the docs rows of the
// matches walked read before the ranking (joinTop).
func (m *matcher) top(ctx context.Context, t table, expr string, limit int) ([]int64, map[int64]float64, map[int64]bool, error) {
	if len(m.siteArgs) == 0 {
		ids, scores, linkOnly, whole, err := m.cutTop(ctx, t, expr, limit)
		if err != nil || whole {
			return ids, scores, linkOnly, err
		}
	}
	return m.joinTop(ctx, t, expr, limit)
}

// cutTop is top without sites, ranked and cut by FTS5 alone; whole says the entries kept are
// all top would return: the cut kept only visible entries, or its walk read every match.
func (m *matcher) cutTop(ctx context.Context, t table, expr string, limit int) (ids []int64, scores map[int64]float64, linkOnly map[int64]bool, whole bool, err error) {
	q := `SELECT cut.rowid, cut.score, docs.url_id, docs.link_only, docs.url_id IS NOT NULL AND ` + visible + `
		FROM (SELECT rowid, score FROM (SELECT rowid, ` + t.bm25 + ` AS score FROM ` + t.name + ` WHERE ` + t.name + ` MATCH ? LIMIT ?)
			ORDER BY score LIMIT ?) AS cut
		LEFT JOIN docs ON docs.num = cut.rowid ORDER BY cut.score`
	scores, linkOnly = map[int64]float64{}, map[int64]bool{}
	cut := 0
	err = eachRow(ctx, m.db, q, []any{m.now, expr, m.topWalk, limit}, func(r *sql.Rows) error {
		var num int64
		var id sql.NullInt64
		var lo, shown sql.NullBool
		var score float64
		if err := r.Scan(&num, &score, &id, &lo, &shown); err != nil {
			return err
		}
		cut++
		if !shown.Bool {
			return nil
		}
		ids, scores[id.Int64], m.nums[id.Int64] = append(ids, id.Int64), score, num
		if lo.Bool {
			linkOnly[id.Int64] = true
		}
		return nil
	})
	return ids, scores, linkOnly, len(ids) == cut || cut < min(limit, m.topWalk), err
}

// joinTop is top with every match's docs row (and urls row, with sites) read before the ranking.
func (m *matcher) joinTop(ctx context.Context, t table, expr string, limit int) ([]int64, map[int64]float64, map[int64]bool, error) {
	q := `SELECT url_id, num, link_only, score FROM (SELECT docs.url_id, docs.num, docs.link_only, ` + t.bm25 + ` AS score FROM ` + m.from(t) + `
		WHERE ` + t.name + ` MATCH ? AND ` + visible + ` AND ` + m.sites + ` LIMIT ?) ORDER BY score LIMIT ?`
	var ids []int64
	scores, linkOnly := map[int64]float64{}, map[int64]bool{}
	err := eachRow(ctx, m.db, q, append(append([]any{expr, m.now}, m.siteArgs...), m.topWalk, limit), func(r *sql.Rows) error {
		var id, num int64
		var lo bool
		var score float64
		if err := r.Scan(&id, &num, &lo, &score); err != nil {
			return err
		}
		ids, scores[id], m.nums[id] = append(ids, id), score, num
		if lo {
			linkOnly[id] = true
		}
		return nil
	})
	return ids, scores, linkOnly, err
}

// sqlTitled reads the URL and title of the fetched entries whose head title matches an
// expression (fts5.AllOfAny within the title column), visible at a time, up to a limit: the
// head's match list of the words, in index order, and a seek per entry shown.
const sqlTitled = `SELECT urls.url, head.title FROM head JOIN docs ON docs.num = head.rowid JOIN urls ON urls.id = docs.url_id
	WHERE head MATCH ? AND NOT docs.link_only AND ` + visible + ` LIMIT ?`

// Titled implements index.Vocabulary: the head index's titles (the Porter stems of their words,
// as fts is searched), which the rule of the page named for all of the query but one word
// probes before it searches again (index/named.go).
func (v vocabulary) Titled(ctx context.Context, sets [][]string, now time.Time, limit int) ([]index.TitledEntry, error) {
	expr := fts5.AllOfAny(sets)
	if expr == "" || limit <= 0 {
		return nil, nil
	}
	out, err := collect(ctx, v.s.read, func(r *sql.Rows) (e index.TitledEntry, err error) { return e, r.Scan(&e.URL, &e.Title) },
		sqlTitled, fts5.InColumns(expr, "title"), unix(now), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: titles: %w", err)
	}
	return out, nil
}
