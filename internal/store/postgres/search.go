package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

const (
	// rankWeights are ts_rank_cd's weights of D (body), C (URL words), B (anchor text) and A
	// (title): the SQLite store's bm25 weights 1, 2, 5 and 10, scaled into PostgreSQL's 0..1.
	rankWeights = `'{0.1, 0.2, 0.5, 1.0}'`
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

// headlineOptions are ts_headline's options for a snippet.
var headlineOptions = fmt.Sprintf(`StartSel=%s, StopSel=%s, MaxWords=%d, MinWords=%d, ShortWord=0, MaxFragments=1, FragmentDelimiter=" … "`,
	markOpen, markClose, snippetWords, snippetWords/2)

// Search implements index.Searcher: entries that hold every term (the query's words through
// searchWords, ANDed by plainto_tsquery), at most searchCandidates of them ranked by ts_rank_cd.
// The matches are counted, and the candidates chosen, from the GIN index's bitmap and the narrow
// docs heap (no tsvector is read); only the candidates' tsvectors are read, to rank them. (A
// window count in the candidates' statement was slower than a second bitmap scan: it buffers
// every match.)
func (s *Store) Search(ctx context.Context, q index.Query) (index.Page, error) {
	q = q.Clamp()
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	terms, err := index.Terms(q.Text)
	if err != nil {
		return index.Page{Query: q.Text}, err
	}
	page := index.Page{Query: q.Text, Terms: terms, Offset: q.Offset, Limit: q.Limit}
	words := make([]string, len(terms))
	for i, t := range terms {
		words[i] = searchWords(t)
	}
	tsq := strings.Join(words, " ")
	const visible = `(docs.unavailable_after IS NULL OR docs.unavailable_after > $2)`
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
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM docs WHERE tsv @@ plainto_tsquery('simple', $1) AND `+visible,
		tsq, now).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
	}
	rows, _ := tx.Query(ctx, `WITH query AS (SELECT plainto_tsquery('simple', $1) AS q),
		cand AS (
			SELECT docs.url_id FROM docs, query WHERE docs.tsv @@ query.q AND `+visible+`
			ORDER BY docs.inlinks DESC, docs.url_id LIMIT $3),
		ranked AS (
			SELECT docs.url_id, ts_rank_cd(`+rankWeights+`, docs.tsv, query.q, `+fmt.Sprint(rankNormalization)+`) AS score
			FROM cand JOIN docs ON docs.url_id = cand.url_id, query
			ORDER BY score DESC, docs.url_id LIMIT $4 OFFSET $5)
		SELECT ranked.url_id, ranked.score,
			CASE WHEN docs.nosnippet THEN '' ELSE ts_headline('simple',
				CASE WHEN docs.link_only THEN doc_text.anchors ELSE doc_text.body END, query.q, $6) END,
			CASE WHEN docs.link_only THEN doc_text.top_anchor ELSE doc_text.title END,
			docs.link_only, docs.inlinks, urls.url, urls.state, urls.reason, urls.status, urls.fetched_at,
			urls.content_type, `+originStatusColumns+`
		FROM ranked JOIN docs ON docs.url_id = ranked.url_id JOIN doc_text ON doc_text.url_id = ranked.url_id
		JOIN urls ON urls.id = ranked.url_id LEFT JOIN origins ON origins.key = urls.origin, query
		ORDER BY ranked.score DESC, ranked.url_id`,
		tsq, now, max(searchCandidates, q.Offset+q.Limit), q.Limit, q.Offset, headlineOptions)
	var r index.Result
	var id int64
	var score float32
	var snippet, ct string
	var fetched pgtype.Timestamptz
	var os originStatus
	_, err = pgx.ForEachRow(rows, append([]any{&id, &score, &snippet, &r.Title, &r.LinkOnly, &r.Inlinks,
		&r.URL, &r.State, &r.Reason, &r.Status, &fetched, &ct}, os.dest()...), func() error {
		res := r
		state, reason := store.Effective(store.State(res.State), res.Reason, os.status(), now)
		res.State, res.Reason, res.FetchedAt, res.Score = string(state), reason, fromTZ(fetched), float64(score)
		res.Snippet = index.SplitMarked(snippet, markOpen, markClose)
		res.Why = index.Why(index.Facts{State: res.State, Reason: res.Reason, Status: res.Status, ContentType: ct,
			FetchedAt: res.FetchedAt, Inlinks: res.Inlinks, Indexed: !res.LinkOnly, LinkOnly: res.LinkOnly})
		page.Results = append(page.Results, res)
		return nil
	})
	if err != nil {
		return page, fmt.Errorf("postgres: search %q: %w", q.Text, err)
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
