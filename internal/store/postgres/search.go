package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

const (
	// tsConfig is the text search configuration of the index and of queries (made with the
	// schema): 'simple' (no stop words) with an English Snowball stemmer, as the SQLite store's
	// FTS5 uses the Porter stemmer.
	tsConfig = "mandelbot_words"
	// rankNormalization divides a rank by 1 + the logarithm of the entry's length, as bm25
	// discounts long documents.
	rankNormalization = 1
	// headScan bounds the head index's matches a query ranks by their head alone, and
	// headCandidates how many of the best of those it ranks by the full tsvector (issue 31 part
	// 4). A common word may match most of the index, in the head too; ranking every match would
	// read every matching tsvector, and the full ones are out of line and large.
	headScan       = 5000
	headCandidates = 200
	// searchCandidates bounds the entries a query takes from the full index (docs.tsv) when the
	// head gives fewer than the page needs: matches in no order, ranked.
	searchCandidates = 1000
	// Snippet markers: control characters that noControls keeps out of indexed text.
	markOpen  = "\x02"
	markClose = "\x03"
	// snippetWords is how many words a snippet shows at most.
	snippetWords = 24
)

// rankWeights are ts_rank_cd's weights of D (body), C (URL words), B (anchor text) and A
// (title): index.RankClassWeights, the weights of index/ranking.go scaled into 0..1.
var rankWeights = func() string {
	w := index.RankClassWeights()
	return fmt.Sprintf("'{%g, %g, %g, %g}'", w[0], w[1], w[2], w[3])
}()

// entryTSV is an entry's whole tsvector: its document's (title, headings, URL words and body),
// or a link-only entry's URL words, with its anchor text; the same words and weights as the head
// and the full index together.
const entryTSV = `(COALESCE(docs.tsv, heads.base) || heads.atsv)`

// headTSV is the tsvector of the head index (heads_head).
const headTSV = `(heads.base || heads.atsv)`

// rankExpr is the score of an entry of ent (its whole tsvector v, read once): ts_rank_cd
// (cover density: matches close together rank higher, the proximity rule of index/ranking.go)
// times the link-only factor, times the phrase boost when the entry has the query's words as one
// phrase (query.pq, NULL when there is none).
var rankExpr = fmt.Sprintf(`ts_rank_cd(%s, ent.v, query.q, %d) * CASE WHEN ent.link_only THEN %g ELSE 1 END
	* CASE WHEN query.pq IS NOT NULL AND ent.v @@ query.pq THEN %g ELSE 1 END`,
	rankWeights, rankNormalization, index.LinkOnlyFactor, 1+index.PhraseBoost)

// headRank is an entry's rank in the head index alone, which picks the head's candidates.
var headRank = fmt.Sprintf(`ts_rank_cd(%s, head.v, query.q, %d)`, rankWeights, rankNormalization)

// headlineOptions are ts_headline's options for a snippet.
var headlineOptions = fmt.Sprintf(`StartSel=%s, StopSel=%s, MaxWords=%d, MinWords=%d, ShortWord=0, MaxFragments=1, FragmentDelimiter=" … "`,
	markOpen, markClose, snippetWords, snippetWords/2)

// searchAsTyped is Search (vocab.go) of the query as typed: entries that match the query (the
// query language, rendered by tsQuery; site: filters on urls.origin), ranked by rankExpr, duplicates merged by
// index.Dedupe. The candidates come from the head index first (up to headCandidates, the best by
// their head's rank among its first headScan matches); only when the head gives fewer than the page needs does the query read the
// full index (up to searchCandidates more). Only the candidates' full tsvectors are read, to rank
// them. The matches are counted up to index.MaxCount from the GIN indexes' bitmaps and the narrow
// heaps (no tsvector is read).
func (s *Store) searchAsTyped(ctx context.Context, q index.Query) (index.Page, error) {
	q = q.Clamp()
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	parsed := q.Parse()
	page := index.Page{Query: q.Text, Terms: parsed.Terms(), Notes: parsed.Notes, Offset: q.Offset, Limit: q.Limit}
	tsq, err := tsQuery(parsed)
	if err != nil {
		return page, err
	}
	patterns := []string{} // not nil: pgx sends a nil slice as NULL
	for _, site := range parsed.Sites {
		patterns = append(patterns, index.OriginLikePatterns(site)...)
	}
	phrase := "" // the query as one phrase, for the phrase boost; '' when it has none
	if n, ok := parsed.WholePhrase(); ok {
		if phrase, err = tsNode(n); err != nil {
			return page, err
		}
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	defer tx.Rollback(ctx)
	// A word in most entries makes a sequential scan look cheap to the planner, but it would
	// read every tsvector (out of line, most of the index's bytes) to test the match; the GIN
	// indexes answer the match without them.
	if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	need := q.Offset + q.Limit + index.DedupeSlack
	cands, err := candidates(ctx, tx, tsq, now, patterns, need)
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	if page.Total, err = countMatches(ctx, tx, tsq, now, patterns); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	rows, _ := tx.Query(ctx, `WITH query AS (SELECT to_tsquery('`+tsConfig+`', $1) AS q,
			CASE WHEN $4 = '' THEN NULL ELSE to_tsquery('`+tsConfig+`', $4) END AS pq),
		ent AS MATERIALIZED (
			SELECT heads.url_id, heads.link_only, `+entryTSV+` AS v
			FROM heads LEFT JOIN docs ON docs.url_id = heads.url_id WHERE heads.url_id = ANY($2)),
		ranked AS (
			SELECT ent.url_id, `+rankExpr+` AS score FROM ent, query WHERE ent.v @@ query.q
			ORDER BY score DESC, ent.url_id LIMIT $3)
		SELECT ranked.url_id, ranked.score,
			COALESCE(docs.nosnippet, false),
			CASE WHEN heads.link_only THEN heads.top_anchor ELSE doc_text.title END,
			COALESCE(doc_text.body, ''), COALESCE(doc_text.headings, ''),
			heads.link_only, urls.url, urls.state, urls.reason, urls.status, urls.fetched_at,
			urls.content_type, urls.canonical, `+originStatusColumns+`
		FROM ranked JOIN heads ON heads.url_id = ranked.url_id LEFT JOIN docs ON docs.url_id = ranked.url_id
		LEFT JOIN doc_text ON doc_text.url_id = ranked.url_id
		JOIN urls ON urls.id = ranked.url_id LEFT JOIN origins ON origins.key = urls.origin, query
		ORDER BY ranked.score DESC, ranked.url_id`,
		tsq, cands, max(need, index.RerankDepth), phrase)
	var r index.Result
	var id int64
	var score float32
	var body, ct string
	var nosnippet bool
	var fetched pgtype.Timestamptz
	var os originStatus
	var results []index.Result
	var types []string           // each result's content type, for index.Why
	bodies := map[int64]string{} // the documents' text, for their shape and index.Snippet
	quiet := map[int64]bool{}    // the documents under nosnippet
	_, err = pgx.ForEachRow(rows, append([]any{&id, &score, &nosnippet, &r.Title, &body, &r.Headings, &r.LinkOnly,
		&r.URL, &r.State, &r.Reason, &r.Status, &fetched, &ct, &r.Canonical}, os.dest()...), func() error {
		res := r
		state, reason := store.Effective(store.State(res.State), res.Reason, os.status(), now)
		res.State, res.Reason, res.FetchedAt, res.Score = string(state), reason, fromTZ(fetched), float64(score)
		quiet[id] = nosnippet
		if !res.LinkOnly {
			res.ContentHash = index.ContentHash(res.Title, body)
			bodies[id] = body
		}
		results, types = append(results, res), append(types, ct)
		return nil
	})
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	if page.Total > index.MaxCount {
		page.Total, page.TotalIsLowerBound = index.MaxCount, true
	}
	if err := fillInlinks(ctx, tx, results); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	for i := range results {
		res := &results[i]
		res.Why = index.Why(index.Facts{State: res.State, Reason: res.Reason, Status: res.Status, ContentType: types[i],
			FetchedAt: res.FetchedAt, Inlinks: res.Inlinks, Indexed: !res.LinkOnly, LinkOnly: res.LinkOnly})
	}
	if err := fillAnchorVotes(ctx, tx, results, page.Terms); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	if err := fillLinkShares(ctx, tx, results, bodies); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	index.Rerank(results, page.Terms)
	results = index.Dedupe(results)
	page.Results = results[min(q.Offset, len(results)):min(q.Offset+q.Limit, len(results))]
	if err := fillSnippets(ctx, tx, tsq, page.Results, page.Terms, index.QueryLooksLikeCode(q.Text), bodies, quiet); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	return page, nil
}

// fillSnippets sets the snippets of the shown results rs: none under nosnippet (quiet); for a
// document, the sentence of its text (bodies) that holds the most query words (issue 32 part 4),
// as in the SQLite store; where no sentence holds one as index.Snippet folds words, and for a
// link-only entry (its anchor text), ts_headline's. Only the shown results' headlines are made
// (issue 31 part 4: search p95): ts_headline parses a whole text, and ranking needs none.
func fillSnippets(ctx context.Context, tx pgx.Tx, tsq string, rs []index.Result, terms []string, code bool,
	bodies map[int64]string, quiet map[int64]bool) error {
	var ids []int64
	at := map[int64][]int{}
	for i := range rs {
		id := store.IDOf(rs[i].URL)
		rs[i].Snippet = nil
		if quiet[id] {
			continue
		}
		if body, ok := bodies[id]; ok && body != "" {
			if sp := index.Snippet(body, terms, code); sp != nil {
				rs[i].Snippet = sp
				continue
			}
		}
		if _, ok := at[id]; !ok {
			ids = append(ids, id)
		}
		at[id] = append(at[id], i)
	}
	if len(ids) == 0 {
		return nil
	}
	rows, _ := tx.Query(ctx, `SELECT heads.url_id, ts_headline('`+tsConfig+`',
			CASE WHEN heads.link_only THEN heads.anchors ELSE COALESCE(doc_text.body, '') END, to_tsquery('`+tsConfig+`', $1), $3)
		FROM heads LEFT JOIN doc_text ON doc_text.url_id = heads.url_id WHERE heads.url_id = ANY($2)`, tsq, ids, headlineOptions)
	var id int64
	var headline string
	if _, err := pgx.ForEachRow(rows, []any{&id, &headline}, func() error {
		for _, i := range at[id] {
			rs[i].Snippet = index.SplitMarked(headline, markOpen, markClose)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("snippets: %w", err)
	}
	return nil
}

// entryFilter keeps the entries a query may show at $2 (unavailable_after) in the origins
// matching one of the LIKE patterns $3 (site:; none: every origin), given docs rows (joined or
// not) and id, the column of the entry's URL ID.
func entryFilter(id string) string {
	return `(docs.unavailable_after IS NULL OR docs.unavailable_after > $2)
	AND (cardinality($3::text[]) = 0 OR EXISTS (SELECT 1 FROM urls su WHERE su.id = ` + id + ` AND su.origin LIKE ANY($3::text[])))`
}

var (
	// searchFilter is entryFilter given heads rows, with docs LEFT JOINed.
	searchFilter = entryFilter("heads.url_id")
	// docsFilter is entryFilter given docs rows alone: every docs row has its heads row (the
	// fold writes both, a generation removes only link-only heads), so a match in the full index
	// needs no join to heads to be counted or taken (issue 31 part 4: a medium word's count probed
	// heads once per match, most of its time).
	docsFilter = entryFilter("docs.url_id")
)

// candidates returns the entries to rank for the tsquery tsq: of the first headScan matches of
// the head index, the headCandidates (at least need) best by their head's rank; and when that is
// fewer than need, up to searchCandidates more from the full index, in no order.
func candidates(ctx context.Context, tx pgx.Tx, tsq string, now time.Time, patterns []string, need int) ([]int64, error) {
	rows, _ := tx.Query(ctx, `WITH query AS (SELECT to_tsquery('`+tsConfig+`', $1) AS q),
		head AS (SELECT heads.url_id, `+headTSV+` AS v FROM heads LEFT JOIN docs ON docs.url_id = heads.url_id, query
			WHERE `+headTSV+` @@ query.q AND `+searchFilter+` LIMIT $5)
		SELECT head.url_id FROM head, query ORDER BY `+headRank+` DESC, head.url_id LIMIT $4`,
		tsq, now, patterns, max(headCandidates, need), headScan)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("head candidates: %w", err)
	}
	if len(ids) >= need {
		return ids, nil
	}
	rows, _ = tx.Query(ctx, `SELECT docs.url_id FROM docs
		WHERE docs.tsv @@ to_tsquery('`+tsConfig+`', $1) AND `+docsFilter+` LIMIT $4`, tsq, now, patterns, searchCandidates)
	more, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("candidates: %w", err)
	}
	return append(ids, more...), nil
}

// countMatches counts, up to index.MaxCount+1, the entries that match tsq in their own text
// (docs) or their head (title, headings, URL words, anchor text), from the GIN indexes and the
// heaps, no tsvector read: the documents first, and when they are not already too many, their
// union with the head's matches.
func countMatches(ctx context.Context, tx pgx.Tx, tsq string, now time.Time, patterns []string) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM docs
		WHERE docs.tsv @@ to_tsquery('`+tsConfig+`', $1) AND `+docsFilter+` LIMIT $4) x`,
		tsq, now, patterns, index.MaxCount+1).Scan(&n); err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	if n > index.MaxCount {
		return n, nil
	}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM (
			SELECT docs.url_id FROM docs
			WHERE docs.tsv @@ to_tsquery('`+tsConfig+`', $1) AND `+docsFilter+`
			UNION
			SELECT heads.url_id FROM heads LEFT JOIN docs ON docs.url_id = heads.url_id
			WHERE `+headTSV+` @@ to_tsquery('`+tsConfig+`', $1) AND `+searchFilter+` LIMIT $4) x`,
		tsq, now, patterns, index.MaxCount+1).Scan(&n); err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	return n, nil
}

// fillInlinks sets the Inlinks of rs: how many pages link to each, from the links table.
func fillInlinks(ctx context.Context, tx pgx.Tx, rs []index.Result) error {
	if len(rs) == 0 {
		return nil
	}
	at := make(map[int64][]int, len(rs))
	ids := make([]int64, 0, len(rs))
	for i, r := range rs {
		id := store.IDOf(r.URL)
		if _, ok := at[id]; !ok {
			ids = append(ids, id)
		}
		at[id] = append(at[id], i)
	}
	rows, _ := tx.Query(ctx, `SELECT to_id, COUNT(DISTINCT from_id) FROM links WHERE to_id = ANY($1) GROUP BY to_id`, ids)
	var id, n int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &n}, func() error {
		for _, i := range at[id] {
			rs[i].Inlinks = int(n)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("inlinks: %w", err)
	}
	return nil
}

// Explain implements index.Searcher.
func (s *Store) Explain(ctx context.Context, url string) (index.Explanation, error) {
	e := index.Explanation{URL: url}
	var f index.Facts
	var fetched pgtype.Timestamptz
	var hasEntry bool
	var linkOnly pgtype.Bool
	var os originStatus
	err := s.pool.QueryRow(ctx, `SELECT urls.state, urls.reason, urls.status, urls.content_type, urls.fetched_at, urls.noindex,
			heads.url_id IS NOT NULL, heads.link_only,
			(SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = urls.id), `+originStatusColumns+`
		FROM urls LEFT JOIN heads ON heads.url_id = urls.id LEFT JOIN origins ON origins.key = urls.origin
		WHERE urls.id = $1 AND urls.url = $2`, store.IDOf(url), url).
		Scan(append([]any{&f.State, &f.Reason, &f.Status, &f.ContentType, &fetched, &f.NoIndex, &hasEntry, &linkOnly, &f.Inlinks}, os.dest()...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		e.Why = index.Why(f)
		return e, nil
	}
	if err != nil {
		return e, fmt.Errorf("postgres: explain %s: %w", url, err)
	}
	state, reason := store.Effective(store.State(f.State), f.Reason, os.status(), time.Now())
	f.State, f.Reason = string(state), reason
	f.FetchedAt = fromTZ(fetched)
	f.Indexed = hasEntry && !linkOnly.Bool
	f.LinkOnly = hasEntry && linkOnly.Bool
	e.Known, e.Indexed, e.LinkOnly, e.State, e.Status, e.Reason, e.Inlinks = true, f.Indexed, f.LinkOnly, f.State, f.Status, f.Reason, f.Inlinks
	e.Why = index.Why(f)
	return e, nil
}

// Titled implements index.Vocabulary: the titles of the head index (heads.base's lexemes of
// weight A, through heads_head), which the rule of the page named for all of the query but one
// word probes before it searches again (index/named.go); the first limit matches, in no order.
func (v vocabulary) Titled(ctx context.Context, sets [][]string, now time.Time, limit int) ([]index.TitledEntry, error) {
	tsq := titleQuery(sets)
	if tsq == "" || limit <= 0 {
		return nil, nil
	}
	var out []index.TitledEntry
	err := v.read(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT urls.url, doc_text.title FROM heads JOIN docs ON docs.url_id = heads.url_id
			JOIN doc_text ON doc_text.url_id = heads.url_id JOIN urls ON urls.id = heads.url_id
			WHERE `+headTSV+` @@ to_tsquery('`+tsConfig+`', $1) AND NOT heads.link_only
				AND (docs.unavailable_after IS NULL OR docs.unavailable_after > $2) LIMIT $3`, tsq, now, limit)
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (index.TitledEntry, error) {
			var e index.TitledEntry
			return e, r.Scan(&e.URL, &e.Title)
		})
		if err != nil {
			return fmt.Errorf("titles: %w", err)
		}
		return nil
	})
	return out, err
}
