package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
)

// Search implements index.Searcher: the search of the query as typed (searchAsTyped, search.go)
// and, when it matches nothing, of the query with its misspelt words corrected from the index's
// vocabulary (index.SearchRespelled, issue 32).
func (s *Store) Search(ctx context.Context, q index.Query) (index.Page, error) {
	return index.SearchRespelled(ctx, q, vocabulary{s}, s.searchAsTyped)
}

// vocabularySample bounds the entries whose lexemes VocabTerms counts: ts_stat reads every
// tsvector it is given (out of line, most of the index's bytes), and the GIN index that
// answers searches cannot list its keys. The sample is the first vocabularySample entries
// holding a lexeme that begins with the prefix; a word held only by entries outside it is no
// correction, and the counts are the sample's. At 20,000 documents of 300 words, 2,000 entries
// took a corrected search's p50 to 317 ms (indexbench -pg, a loaded machine).
const vocabularySample = 500

// vocabulary is the store's index.Vocabulary: the lexemes of docs.tsv (Snowball stems of the
// documents' title, headings, URL words and body; anchor text is in heads) counted by ts_stat, and their spellings read
// back from the entries' text by ts_headline.
type vocabulary struct{ s *Store }

// lexeme is the tsquery of one lexeme as written, quoted so that no text is tsquery syntax;
// with prefix, any lexeme that begins with it.
func lexeme(word string, prefix bool) string {
	q := "'" + strings.ReplaceAll(strings.ReplaceAll(word, `\`, `\\`), "'", "''") + "'"
	if prefix {
		q += ":*"
	}
	return q
}

// read runs fn in a read-only transaction that keeps the planner off sequential scans of docs,
// as Search does (search.go): a word that no entry or few entries hold makes a scan look cheap
// to it, and a scan reads every tsvector.
func (v vocabulary) read(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := v.s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("postgres: vocabulary: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
		return fmt.Errorf("postgres: vocabulary: %w", err)
	}
	if err := fn(tx); err != nil {
		return fmt.Errorf("postgres: vocabulary: %w", err)
	}
	return nil
}

// Holds implements index.Vocabulary: some entry matches word, as Search renders it.
func (v vocabulary) Holds(ctx context.Context, word string) (bool, error) {
	tsq, err := tsQuery(index.Parse(word))
	if err != nil {
		return false, err
	}
	var held bool
	err = v.read(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM docs WHERE tsv @@ to_tsquery('`+tsConfig+`', $1))
			OR EXISTS (SELECT 1 FROM heads WHERE `+headTSV+` @@ to_tsquery('`+tsConfig+`', $1))`, tsq).Scan(&held)
	})
	return held, err
}

// Entries implements index.Vocabulary: the documents whose own text (docs.tsv) matches word,
// as Search renders it, counted up to limit.
func (v vocabulary) Entries(ctx context.Context, word string, limit int) (int, error) {
	tsq, err := tsQuery(index.Parse(word))
	if err != nil {
		return 0, err
	}
	var n int
	err = v.read(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM docs WHERE tsv @@ to_tsquery('`+tsConfig+`', $1) LIMIT $2) m`,
			tsq, limit).Scan(&n)
	})
	return n, err
}

// VocabTerms implements index.Vocabulary, in the order of the terms, the entries counted in
// a sample (vocabularySample).
func (v vocabulary) VocabTerms(ctx context.Context, prefix string, limit int) ([]index.VocabTerm, error) {
	var out []index.VocabTerm
	err := v.read(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT word, ndoc FROM ts_stat(format('SELECT tsv FROM docs WHERE tsv @@ %L::tsquery LIMIT %s', $1::text, $2::int))
			WHERE starts_with(word, $3) ORDER BY word LIMIT $4`, lexeme(prefix, true), vocabularySample, prefix, limit)
		var err error
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (index.VocabTerm, error) {
			var t index.VocabTerm
			err := row.Scan(&t.Term, &t.Entries)
			return t, err
		})
		return err
	})
	return out, err
}

// Spellings implements index.Vocabulary: the words ts_headline marks for the lexeme in the
// text of the first limit fetched entries that hold it, each once.
func (v vocabulary) Spellings(ctx context.Context, term string, limit int) ([]string, error) {
	var headlines []string
	err := v.read(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT ts_headline('`+tsConfig+`', doc_text.title || ' ' || doc_text.headings || ' ' || doc_text.body,
				$1::tsquery, $3)
			FROM docs JOIN doc_text ON doc_text.url_id = docs.url_id
			WHERE docs.tsv @@ $1::tsquery LIMIT $2`,
			lexeme(term, false), limit, spellingHeadline)
		var err error
		headlines, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range headlines {
		for _, sp := range index.SplitMarked(h, markOpen, markClose) {
			if !sp.Match {
				continue
			}
			for _, w := range strings.Fields(searchWords(sp.Text)) {
				if !containsString(out, w) {
					out = append(out, w)
				}
			}
		}
	}
	return out, nil
}

// spellingHeadline are ts_headline's options for Spellings: the first fragment with a match,
// a few words long.
var spellingHeadline = fmt.Sprintf(`StartSel=%s, StopSel=%s, MaxWords=5, MinWords=1, ShortWord=0, MaxFragments=1`,
	markOpen, markClose)

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
