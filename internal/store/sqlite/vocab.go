package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/index/fts5"
)

// Search implements index.Searcher: the search of the query as typed (searchAsTyped, search.go)
// and, when it matches nothing, of the query with its misspelt words corrected from the index's
// vocabulary (index.SearchRespelled, issue 32).
func (s *Store) Search(ctx context.Context, q index.Query) (index.Page, error) {
	return index.SearchRespelled(ctx, q, vocabulary{s}, s.searchAsTyped)
}

// vocabulary is the store's index.Vocabulary: the terms of the entries' own text (txt.fts, the
// Porter stems of its words) read through FTS5's fts5vocab tables, and their spellings read
// back from the text at a term's first positions.
type vocabulary struct{ s *Store }

// The fts5vocab tables over txt.fts: one row per term with the entries holding it, and one row
// per occurrence (entry, column, token position). They live in each read connection's temp
// schema (sqlCreateVocab), as the read connections only read the store's files.
const (
	vocabRowTable      = "mandelbot_vocab"
	vocabInstanceTable = "mandelbot_vocab_instance"
	sqlCreateVocab     = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.` + vocabRowTable + ` USING fts5vocab(` + textSchemaName + `, fts, row);
		CREATE VIRTUAL TABLE IF NOT EXISTS temp.` + vocabInstanceTable + ` USING fts5vocab(` + textSchemaName + `, fts, instance)`
)

// withVocab runs fn on a read connection that has the fts5vocab tables. The connection is
// query_only (dsn): a table of the temp schema is written to the connection's own memory only,
// so writing is let through for sqlCreateVocab alone, and a connection that stays writable is
// not given back to the pool.
func (v vocabulary) withVocab(ctx context.Context, fn func(*sql.Conn) error) error {
	conn, err := v.s.read.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.ExecContext(ctx, `PRAGMA query_only = 0; `+sqlCreateVocab)
	if _, err2 := conn.ExecContext(ctx, `PRAGMA query_only = 1`); err2 != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return errors.Join(err, err2)
	}
	if err != nil {
		return err
	}
	return fn(conn)
}

// Holds implements index.Vocabulary: some entry's text or anchor text matches word.
func (v vocabulary) Holds(ctx context.Context, word string) (bool, error) {
	match, err := fts5.Match(index.Parse(word))
	if err != nil {
		return false, err
	}
	var held bool
	err = v.s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM fts WHERE fts MATCH ?)
		OR EXISTS (SELECT 1 FROM fts_anchors WHERE fts_anchors MATCH ?)`, match, match).Scan(&held)
	if err != nil {
		return false, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return held, nil
}

// Entries implements index.Vocabulary: the entries whose own text (fts) matches word, counted
// up to limit.
func (v vocabulary) Entries(ctx context.Context, word string, limit int) (int, error) {
	match, err := fts5.Match(index.Parse(word))
	if err != nil {
		return 0, err
	}
	// The rows are counted here: count(*) over a LIMIT subquery is a scan of the subquery
	// (plan_test.go).
	rows, err := v.s.read.QueryContext(ctx, `SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?`, match, limit)
	if err != nil {
		return 0, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return n, nil
}

// VocabTerms implements index.Vocabulary, in the order of the terms: the range of terms that
// begin with prefix, which fts5vocab reads from the index's term list.
func (v vocabulary) VocabTerms(ctx context.Context, prefix string, limit int) ([]index.VocabTerm, error) {
	var out []index.VocabTerm
	err := v.withVocab(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, `SELECT term, doc FROM `+vocabRowTable+` WHERE term >= ? AND term < ? LIMIT ?`,
			prefix, prefixEnd(prefix), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t index.VocabTerm
			if err := rows.Scan(&t.Term, &t.Entries); err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return out, nil
}

// Spellings implements index.Vocabulary: the words at the term's first limit occurrences (the
// entries' columns read back and split as the tokenizer splits them, index.SpellingAt), each
// once.
func (v vocabulary) Spellings(ctx context.Context, term string, limit int) ([]string, error) {
	var out []string
	err := v.withVocab(ctx, func(conn *sql.Conn) error {
		type at struct {
			doc    int64
			col    string
			offset int
		}
		var ats []at
		rows, err := conn.QueryContext(ctx, `SELECT doc, col, offset FROM `+vocabInstanceTable+` WHERE term = ? LIMIT ?`, term, limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var a at
			if err := rows.Scan(&a.doc, &a.col, &a.offset); err != nil {
				rows.Close()
				return err
			}
			ats = append(ats, a)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, a := range ats {
			if !ftsColumns[a.col] {
				continue
			}
			var text string
			if err := conn.QueryRowContext(ctx, `SELECT `+a.col+` FROM fts WHERE rowid = ?`, a.doc).Scan(&text); err != nil {
				return err
			}
			if w := index.SpellingAt(text, a.offset); w != "" && !containsString(out, w) {
				out = append(out, w)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return out, nil
}

// ftsColumns are the columns of fts (schema.go), which Spellings reads by name.
var ftsColumns = map[string]bool{"title": true, "headings": true, "body": true, "urlwords": true, "idents": true}

// prefixEnd is the least string above every string that begins with prefix (a non-empty
// lower-case word): prefix with its last rune incremented.
func prefixEnd(prefix string) string {
	r, size := utf8.DecodeLastRuneInString(prefix)
	return prefix[:len(prefix)-size] + string(r+1)
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
