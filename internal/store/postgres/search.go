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
	// searchCandidates bounds the entries a query ranks: the matching entries with the most
	// inlinks, then by ID. A common word may match most of the index; ranking every match would
	// read every matching tsvector, where counting them reads only the GIN index and the heap.
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

// rankExpr is an entry's score: ts_rank_cd (cover density: matches close together rank higher,
// the proximity rule of index/ranking.go) times the link-only factor, times the phrase boost
// when the entry has the query's words as one phrase (query.pq, NULL when there is none).
var rankExpr = fmt.Sprintf(`ts_rank_cd(%s, docs.tsv, query.q, %d) * CASE WHEN docs.link_only THEN %g ELSE 1 END
	* CASE WHEN query.pq IS NOT NULL AND docs.tsv @@ query.pq THEN %g ELSE 1 END`,
	rankWeights, rankNormalization, index.LinkOnlyFactor, 1+index.PhraseBoost)

// headlineOptions are ts_headline's options for a snippet.
var headlineOptions = fmt.Sprintf(`StartSel=%s, StopSel=%s, MaxWords=%d, MinWords=%d, ShortWord=0, MaxFragments=1, FragmentDelimiter=" … "`,
	markOpen, markClose, snippetWords, snippetWords/2)

// searchAsTyped is Search (vocab.go) of the query as typed: entries that match the query (the
// query language, rendered by tsQuery; site: filters on urls.origin), at most searchCandidates
// of them ranked by rankExpr, duplicates merged by index.Dedupe. The matches are counted up to index.MaxCount, and the
// candidates chosen, from the GIN index's bitmap and the narrow docs heap (no tsvector is read);
// only the candidates' tsvectors are read, to rank them.
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
	const filter = `(docs.unavailable_after IS NULL OR docs.unavailable_after > $2)
		AND (cardinality($3::text[]) = 0 OR EXISTS (SELECT 1 FROM urls su WHERE su.id = docs.url_id AND su.origin LIKE ANY($3::text[])))`
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	defer tx.Rollback(ctx)
	// A word in most entries makes a sequential scan look cheap to the planner, but it would
	// read every tsvector (out of line, most of the index's bytes) to test the match; the GIN
	// index answers the match without them.
	if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM docs WHERE tsv @@ to_tsquery('`+tsConfig+`', $1) AND `+filter+` LIMIT $4) x`,
		tsq, now, patterns, index.MaxCount+1).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	if page.Total > index.MaxCount {
		page.Total, page.TotalIsLowerBound = index.MaxCount, true
	}
	phrase := "" // the query as one phrase, for the phrase boost; '' when it has none
	if n, ok := parsed.WholePhrase(); ok {
		if phrase, err = tsNode(n); err != nil {
			return page, err
		}
	}
	rows, _ := tx.Query(ctx, `WITH query AS (SELECT to_tsquery('`+tsConfig+`', $1) AS q,
			CASE WHEN $7 = '' THEN NULL ELSE to_tsquery('`+tsConfig+`', $7) END AS pq),
		cand AS (
			SELECT docs.url_id FROM docs, query WHERE docs.tsv @@ query.q AND `+filter+`
			ORDER BY docs.inlinks DESC, docs.url_id LIMIT $4),
		ranked AS (
			SELECT docs.url_id, `+rankExpr+` AS score
			FROM cand JOIN docs ON docs.url_id = cand.url_id, query
			ORDER BY score DESC, docs.url_id LIMIT $5)
		SELECT ranked.url_id, ranked.score,
			CASE WHEN docs.nosnippet THEN '' ELSE ts_headline('`+tsConfig+`',
				CASE WHEN docs.link_only THEN doc_text.anchors ELSE doc_text.body END, query.q, $6) END,
			CASE WHEN docs.link_only THEN doc_text.top_anchor ELSE doc_text.title END,
			CASE WHEN docs.link_only THEN '' ELSE doc_text.body END,
			CASE WHEN docs.link_only THEN '' ELSE doc_text.headings END,
			docs.link_only, docs.inlinks, urls.url, urls.state, urls.reason, urls.status, urls.fetched_at,
			urls.content_type, urls.canonical, `+originStatusColumns+`
		FROM ranked JOIN docs ON docs.url_id = ranked.url_id JOIN doc_text ON doc_text.url_id = ranked.url_id
		JOIN urls ON urls.id = ranked.url_id LEFT JOIN origins ON origins.key = urls.origin, query
		ORDER BY ranked.score DESC, ranked.url_id`,
		tsq, now, patterns, max(searchCandidates, q.Offset+q.Limit+index.DedupeSlack),
		max(q.Offset+q.Limit+index.DedupeSlack, index.RerankDepth), headlineOptions, phrase)
	var r index.Result
	var id int64
	var score float32
	var snippet, body, ct string
	var fetched pgtype.Timestamptz
	var os originStatus
	var results []index.Result
	bodies := map[int64]string{} // the documents' text, for their shape and index.Snippet
	_, err = pgx.ForEachRow(rows, append([]any{&id, &score, &snippet, &r.Title, &body, &r.Headings, &r.LinkOnly, &r.Inlinks,
		&r.URL, &r.State, &r.Reason, &r.Status, &fetched, &ct, &r.Canonical}, os.dest()...), func() error {
		res := r
		state, reason := store.Effective(store.State(res.State), res.Reason, os.status(), now)
		res.State, res.Reason, res.FetchedAt, res.Score = string(state), reason, fromTZ(fetched), float64(score)
		res.Snippet = index.SplitMarked(snippet, markOpen, markClose)
		if !res.LinkOnly {
			res.ContentHash = index.ContentHash(res.Title, body)
			bodies[id] = body
		}
		res.Why = index.Why(index.Facts{State: res.State, Reason: res.Reason, Status: res.Status, ContentType: ct,
			FetchedAt: res.FetchedAt, Inlinks: res.Inlinks, Indexed: !res.LinkOnly, LinkOnly: res.LinkOnly})
		results = append(results, res)
		return nil
	})
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
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
	// A shown document's snippet is the sentence that holds the most query words (issue 32 part
	// 4), as in the SQLite store; ts_headline's stays where no sentence holds one as
	// index.Snippet folds words.
	code := index.QueryLooksLikeCode(q.Text)
	for i := range page.Results {
		if body, ok := bodies[store.IDOf(page.Results[i].URL)]; ok && len(page.Results[i].Snippet) > 0 {
			if sp := index.Snippet(body, page.Terms, code); sp != nil {
				page.Results[i].Snippet = sp
			}
		}
	}
	return page, nil
}

// Explain implements index.Searcher.
func (s *Store) Explain(ctx context.Context, url string) (index.Explanation, error) {
	e := index.Explanation{URL: url}
	var f index.Facts
	var fetched pgtype.Timestamptz
	var hasDoc bool
	var linkOnly pgtype.Bool
	var inlinks pgtype.Int4
	var os originStatus
	err := s.pool.QueryRow(ctx, `SELECT urls.state, urls.reason, urls.status, urls.content_type, urls.fetched_at, urls.noindex,
			docs.url_id IS NOT NULL, docs.link_only, docs.inlinks, `+originStatusColumns+`
		FROM urls LEFT JOIN docs ON docs.url_id = urls.id LEFT JOIN origins ON origins.key = urls.origin
		WHERE urls.id = $1 AND urls.url = $2`, store.IDOf(url), url).
		Scan(append([]any{&f.State, &f.Reason, &f.Status, &f.ContentType, &fetched, &f.NoIndex, &hasDoc, &linkOnly, &inlinks}, os.dest()...)...)
	if errors.Is(err, pgx.ErrNoRows) {
		e.Why = index.Why(f)
		return e, nil
	}
	if err != nil {
		return e, fmt.Errorf("postgres: explain %s: %w", url, err)
	}
	state, reason := store.Effective(store.State(f.State), f.Reason, os.status(), time.Now())
	f.State, f.Reason = string(state), reason
	f.FetchedAt, f.Inlinks = fromTZ(fetched), int(inlinks.Int32)
	f.Indexed = hasDoc && !linkOnly.Bool
	f.LinkOnly = hasDoc && linkOnly.Bool
	if !f.Indexed && !f.LinkOnly {
		if err := s.pool.QueryRow(ctx, `SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = $1`, store.IDOf(url)).Scan(&f.Inlinks); err != nil {
			return e, fmt.Errorf("postgres: explain %s: %w", url, err)
		}
	}
	e.Known, e.Indexed, e.LinkOnly, e.State, e.Status, e.Reason, e.Inlinks = true, f.Indexed, f.LinkOnly, f.State, f.Status, f.Reason, f.Inlinks
	e.Why = index.Why(f)
	return e, nil
}
