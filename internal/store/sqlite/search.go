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
	"github.com/fractle/mandelbot/internal/store"
)

// bm25Weights are the column weights of bm25 over fts, in the order of its columns (title,
// headings, body, URL words, identifier parts), and bm25AnchorWeight fts_anchors' one column's:
// index/ranking.go.
var (
	bm25Weights = fmt.Sprintf("%g, %g, %g, %g, %g", index.WeightTitle, index.WeightHeadings,
		index.WeightBody, index.WeightURLWords, index.WeightIdentifierParts)
	bm25AnchorWeight = fmt.Sprintf("%g", index.WeightAnchors)
)

// Snippet markers: control characters that cannot survive in indexed text (the extractor emits
// valid text without C0 controls), so a marker is never confused with page content.
const (
	markOpen  = "\x02"
	markClose = "\x03"
	// snippetTokens is how many tokens a snippet shows.
	snippetTokens = 24
)

// siteFilter is the SQL condition (on urls.origin, a key "scheme://host[:port]") and its
// arguments that keep the hosts of sites and their subdomains (index.Parsed.HostInSites); always
// true when sites is empty.
func siteFilter(sites []string) (string, []any) {
	if len(sites) == 0 {
		return "1", nil
	}
	var conds []string
	var args []any
	for _, site := range sites {
		for _, pattern := range index.OriginLikePatterns(site) {
			conds = append(conds, `urls.origin LIKE ? ESCAPE '\'`)
			args = append(args, pattern)
		}
	}
	return "(" + strings.Join(conds, " OR ") + ")", args
}

// searchAsTyped is Search (vocab.go) of the query as typed, with FTS5, ranked by bm25 with the
// weights and factors of index/ranking.go, the head index answering first for frequent words
// (head.go), duplicates merged by index.Dedupe. Matches are counted up to index.MaxCount.
func (s *Store) searchAsTyped(ctx context.Context, q index.Query) (index.Page, error) {
	return s.search(ctx, q, walks{text: fullTextWalk, top: topWalk})
}

// walks bounds the match lists one query reads: text is fullTextWalk, top topWalk (head.go).
type walks struct{ text, top int }

// search is searchAsTyped with the walks given: the tests take the head's path, and bound its
// walk, on an index of a few thousand entries.
func (s *Store) search(ctx context.Context, q index.Query, w walks) (index.Page, error) {
	q = q.Clamp()
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	parsed := q.Parse() // the query language (internal/index/querylang.go)
	page := index.Page{Query: q.Text, Terms: parsed.Terms(), Notes: parsed.Notes, Offset: q.Offset, Limit: q.Limit}
	match, err := fts5.Match(parsed)
	if err != nil {
		return page, err
	}
	not, err := fts5.Exclusions(parsed)
	if err != nil {
		return page, err
	}
	anyNode, nodes, err := fts5.Any(parsed)
	if err != nil {
		return page, err
	}
	m := matcher{db: s.read, walk: w.text, topWalk: w.top, match: match, not: not, any: anyNode, nodes: nodes, now: unix(now), nums: map[int64]int64{}}
	m.sites, m.siteArgs = siteFilter(parsed.Sites)
	ranked, total, err := m.rank(ctx, parsed, max(q.Offset+q.Limit+index.DedupeSlack, index.RerankDepth), q.Offset+q.Limit+index.DedupeSlack)
	if err != nil {
		return page, fmt.Errorf("sqlite: search %q: %w", q.Text, err)
	}
	page.Total = total
	if page.Total > index.MaxCount {
		page.Total, page.TotalIsLowerBound = index.MaxCount, true
	}
	if len(ranked) == 0 {
		return page, nil
	}
	ids := make([]int64, 0, len(ranked))
	for id := range ranked {
		ids = append(ids, id)
	}
	var results []index.Result
	nosnippets := map[string]bool{}
	texts := map[int64]textShape{}
	err = eachRow(ctx, s.read, `SELECT docs.url_id, fts.title, fts.headings, length(CAST(fts.body AS BLOB)), `+sqlSentenceEnds+`, docs.link_only, docs.nosnippet, docs.inlinks,
			docs.content_hash, urls.url, urls.state, urls.reason, urls.status, urls.fetched_at, urls.content_type,
			urls.canonical, `+originStatusColumns+`
		FROM docs JOIN fts ON fts.rowid = docs.num JOIN urls ON urls.id = docs.url_id
		LEFT JOIN origins ON origins.key = urls.origin
		WHERE docs.url_id `+inSet, []any{idSet(ids)}, func(row *sql.Rows) error {
		var r index.Result
		var id, fetched, hash int64
		var shape textShape
		var ct string
		var linkOnly, nosnippet int
		var os originStatus
		if err := row.Scan(append([]any{&id, &r.Title, &r.Headings, &shape.bytes, &shape.sentenceEnds, &linkOnly, &nosnippet, &r.Inlinks, &hash,
			&r.URL, &r.State, &r.Reason, &r.Status, &fetched, &ct, &r.Canonical}, os.dest()...)...); err != nil {
			return err
		}
		state, reason := store.Effective(store.State(r.State), r.Reason, os.status(), now)
		r.State, r.Reason = string(state), reason
		r.LinkOnly, r.FetchedAt, r.ContentHash = linkOnly == 1, fromUnix(fetched), uint64(hash)
		r.Score = -ranked[id] // bm25 is lower for better matches
		nosnippets[r.URL] = nosnippet == 1
		texts[id] = shape
		r.Why = index.Why(index.Facts{State: r.State, Reason: r.Reason, Status: r.Status, ContentType: ct,
			FetchedAt: r.FetchedAt, Inlinks: r.Inlinks, Indexed: !r.LinkOnly, LinkOnly: r.LinkOnly})
		results = append(results, r)
		return nil
	})
	if err != nil {
		return page, fmt.Errorf("sqlite: search %q: %w", q.Text, err)
	}
	// The order of the ranking, ties by ID, before Rerank refines it.
	slices.SortFunc(results, func(a, b index.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(store.IDOf(a.URL), store.IDOf(b.URL))
	})
	if err := s.fillAnchorVotes(ctx, results, page.Terms); err != nil {
		return page, fmt.Errorf("sqlite: search %q: %w", q.Text, err)
	}
	if err := s.fillLinkShares(ctx, results, texts); err != nil {
		return page, fmt.Errorf("sqlite: search %q: %w", q.Text, err)
	}
	index.Rerank(results, page.Terms)
	results = index.Dedupe(results)
	page.Results = results[min(q.Offset, len(results)):min(q.Offset+q.Limit, len(results))]
	if err := s.snippets(ctx, &m, page.Results, nosnippets, page.Terms, index.QueryLooksLikeCode(q.Text)); err != nil {
		return page, fmt.Errorf("sqlite: search %q: %w", q.Text, err)
	}
	for i := range page.Results {
		if page.Results[i].LinkOnly {
			if t, err := s.topAnchor(ctx, page.Results[i].URL); err == nil {
				page.Results[i].Title = t
			}
		}
	}
	return page, nil
}

// resultLinks is store.ResultLinks: the links to a result that a search reads for its anchor
// votes (fillAnchorVotes), and a link-only result's title (topAnchor) and snippet
// (anchorSnippets), each. The first in the key's order (linking pages by URL ID, a hash: a
// sample of them) stand for the rest.
const resultLinks = store.ResultLinks

// topAnchor is the anchor text most pages use for url, links to a fragment of it left out
// (index/ranking.go), among the first resultLinks links to it (the limit applies to the rows
// read, before they are sifted, as sqlAnchorVotes's): the title of a link-only entry.
func (s *Store) topAnchor(ctx context.Context, url string) (string, error) {
	count := map[string]int{}
	err := eachRow(ctx, s.read, `SELECT anchor FROM (SELECT anchor, fragment FROM links WHERE to_id = ? ORDER BY to_id, from_id LIMIT ?)
		WHERE anchor != '' AND fragment = 0`,
		[]any{store.IDOf(url), resultLinks}, func(r *sql.Rows) error {
			var a string
			err := r.Scan(&a)
			count[a]++
			return err
		})
	top := ""
	for a, n := range count {
		if n > count[top] || n == count[top] && a < top {
			top = a
		}
	}
	return top, err
}

// Explain implements index.Searcher.
func (s *Store) Explain(ctx context.Context, url string) (index.Explanation, error) {
	e := index.Explanation{URL: url}
	var f index.Facts
	var fetched int64
	var noindex int
	var hasDoc, linkOnly, inlinks sql.NullInt64
	var os originStatus
	err := s.read.QueryRowContext(ctx, `SELECT urls.state, urls.reason, urls.status, urls.content_type, urls.fetched_at, urls.noindex,
			docs.url_id IS NOT NULL, docs.link_only, docs.inlinks, `+originStatusColumns+`
		FROM urls LEFT JOIN docs ON docs.url_id = urls.id LEFT JOIN origins ON origins.key = urls.origin
		WHERE urls.id = ? AND urls.url = ?`, store.IDOf(url), url).
		Scan(append([]any{&f.State, &f.Reason, &f.Status, &f.ContentType, &fetched, &noindex, &hasDoc, &linkOnly, &inlinks}, os.dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		e.Why = index.Why(f)
		return e, nil
	}
	if err != nil {
		return e, fmt.Errorf("sqlite: explain %s: %w", url, err)
	}
	state, reason := store.Effective(store.State(f.State), f.Reason, os.status(), time.Now())
	f.State, f.Reason = string(state), reason
	f.FetchedAt, f.NoIndex, f.Inlinks = fromUnix(fetched), noindex == 1, int(inlinks.Int64)
	f.Indexed = hasDoc.Int64 == 1 && linkOnly.Int64 == 0
	f.LinkOnly = hasDoc.Int64 == 1 && linkOnly.Int64 == 1
	if !f.Indexed && !f.LinkOnly {
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = ?`, store.IDOf(url)).Scan(&f.Inlinks); err != nil {
			return e, fmt.Errorf("sqlite: explain %s: %w", url, err)
		}
	}
	e.Known, e.Indexed, e.LinkOnly, e.State, e.Status, e.Reason, e.Inlinks = true, f.Indexed, f.LinkOnly, f.State, f.Status, f.Reason, f.Inlinks
	e.Why = index.Why(f)
	if e.LinkedFrom, err = s.linkedFrom(ctx, url); err != nil {
		return e, err
	}
	return e, nil
}

// linkedFrom returns up to index.MaxLinkedFrom pages linking to url, with an anchor text of
// each, in URL order (issue 10: the URL lookup lists the linking pages).
func (s *Store) linkedFrom(ctx context.Context, url string) ([]index.Inlink, error) {
	out, err := collect(ctx, s.read, func(r *sql.Rows) (l index.Inlink, err error) { return l, r.Scan(&l.URL, &l.Anchor) },
		`SELECT urls.url, MAX(links.anchor) FROM links JOIN urls ON urls.id = links.from_id
		WHERE links.to_id = ? GROUP BY urls.url ORDER BY urls.url LIMIT ?`, store.IDOf(url), index.MaxLinkedFrom)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pages linking to %s: %w", url, err)
	}
	return out, nil
}

// originStatusColumns are the origin columns store.Effective needs, read by originStatus.dest
// from a LEFT JOIN of origins (NULL when the origin row is missing).
const originStatusColumns = `origins.paused_until, origins.pause_reason, origins.robots_failures,
	origins.robots_good_body, origins.robots_reason`

type originStatus struct {
	pausedUntil, failures, goodBody sql.NullInt64
	pauseReason, robotsReason       sql.NullString
}

func (o *originStatus) dest() []any {
	return []any{&o.pausedUntil, &o.pauseReason, &o.failures, &o.goodBody, &o.robotsReason}
}

func (o *originStatus) status() store.OriginStatus {
	return store.OriginStatus{
		PausedUntil: fromUnix(o.pausedUntil.Int64), PauseReason: o.pauseReason.String,
		RobotsUnreachable: o.failures.Int64 > 0 && o.goodBody.Int64 == 0, RobotsReason: o.robotsReason.String,
	}
}

// sqlSnippets reads the engine's snippets of the documents in an idSet (entry numbers) that
// match a MATCH expression, of their body. The rowid test is not hidden from FTS5 (no unary +):
// FTS5 seeks each of the few entries shown in the query's match list instead of walking all of
// it, which for a word in most of the index costs as much as the rest of the search. (snippet,
// unlike bm25, computes nothing over the whole match list, so a seek per entry is cheap.)
var sqlSnippets = `SELECT docs.url_id, snippet(fts, 2, '` + markOpen + `', '` + markClose + `', '…', ` + fmt.Sprint(snippetTokens) + `)
	FROM fts JOIN docs ON docs.num = fts.rowid WHERE fts MATCH ? AND NOT docs.link_only AND fts.rowid ` + inSet

// sqlSnippetText reads the text of the documents among the entries numbered by an idSet.
const sqlSnippetText = `SELECT docs.url_id, fts.body FROM fts JOIN docs ON docs.num = fts.rowid
	WHERE fts.rowid ` + inSet + ` AND NOT docs.link_only`

// snippets fills the snippets of the results shown (nosnippet says which have none): a
// document's is the sentence of its text that holds the most of terms (index.Snippet, issue 32
// part 4; code only when code says the query looks like code), and a document none of whose
// sentences holds a query word as index.Snippet folds words (the engine's stemmer folds more)
// gets the engine's snippet of its body, in one walk of the query's matches. A link-only entry's
// is index.Snippet's of its anchor text, made from its links as a rewrite makes it (fts_anchors
// keeps no text: fts.go), or the anchor text's first words when no query word is found in it as
// written. Only the page shown gets snippets. m, the query's matcher, knows the entries' numbers
// already.
func (s *Store) snippets(ctx context.Context, m *matcher, rs []index.Result, nosnippet map[string]bool, terms []string, code bool) error {
	var ids, linkOnly []int64
	at := map[int64]int{}
	for i, r := range rs {
		if nosnippet[r.URL] {
			continue
		}
		id := store.IDOf(r.URL)
		at[id] = i
		if r.LinkOnly {
			linkOnly = append(linkOnly, id)
		} else {
			ids = append(ids, id)
		}
	}
	if err := s.anchorSnippets(ctx, rs, at, linkOnly, terms, code); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	nums, _, err := m.numsOf(ctx, ids)
	if err != nil {
		return err
	}
	err = eachRow(ctx, s.read, sqlSnippetText, []any{idSet(nums)}, func(r *sql.Rows) error {
		var id int64
		var body string
		if err := r.Scan(&id, &body); err != nil {
			return err
		}
		rs[at[id]].Snippet = index.Snippet(body, terms, code)
		return nil
	})
	if err != nil {
		return err
	}
	// The numbers of the documents still without a snippet whose text may match the query: the
	// statement seeks only them (a seek in a frequent word's list, and its snippet, cost as much
	// as the rest of the page; one whose text does not match finds no row).
	var left []int64
	for _, id := range ids {
		if num, ok := m.nums[id]; ok && rs[at[id]].Snippet == nil && m.textMay(id) {
			left = append(left, num)
		}
	}
	if len(left) == 0 {
		return nil
	}
	return eachRow(ctx, s.read, sqlSnippets, []any{m.match, idSet(left)}, func(r *sql.Rows) error {
		var id int64
		var snippet string
		if err := r.Scan(&id, &snippet); err != nil {
			return err
		}
		rs[at[id]].Snippet = index.SplitMarked(snippet, markOpen, markClose)
		return nil
	})
}

// sqlResultLinks reads the first resultLinks links to one URL, in the order readAnchors reads.
const sqlResultLinks = `SELECT to_id, from_id, anchor FROM links WHERE to_id = ? ORDER BY to_id, from_id LIMIT ?`

// anchorSnippets fills the snippets of the link-only entries ids (URL IDs, of rs[at[id]]) from
// the anchor text of the first resultLinks links to each (readAnchors): see snippets.
func (s *Store) anchorSnippets(ctx context.Context, rs []index.Result, at map[int64]int, ids []int64, terms []string, code bool) error {
	plans := make(map[int64]*plan, len(ids))
	for _, id := range ids {
		plans[id] = &plan{}
		if err := readAnchorsOf(ctx, s.read, sqlResultLinks, []any{id, resultLinks}, plans); err != nil {
			return err
		}
	}
	for id, p := range plans {
		if p.anchors == "" {
			continue
		}
		snippet := index.Snippet(p.anchors, terms, code)
		if snippet == nil {
			snippet = []index.Span{{Text: firstWords(p.anchors, snippetTokens)}}
		}
		rs[at[id]].Snippet = snippet
	}
	return nil
}

// firstWords is text's first n words, with "…" after them when text has more.
func firstWords(text string, n int) string {
	words := strings.Fields(text)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:n], " ") + " …"
}
