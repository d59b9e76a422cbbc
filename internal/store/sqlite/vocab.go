package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/index/fts5"
)

// Search implements index.Searcher: the search of the query as typed (searchAsTyped, search.go)
// and, when it matches nothing, of the query with its misspelt words corrected from the index's
// vocabulary (index.SearchRespelled, issue 32).
func (s *Store) Search(ctx context.Context, q index.Query) (index.Page, error) {
	return index.SearchRespelled(ctx, q, vocabulary{s}, s.searchAsTyped)
}

// vocabulary is the store's index.Vocabulary and index.TermSeeker: the terms of the entries'
// own text (idx.fts, the Porter stems of its words) sought through FTS5's fts5vocab instance
// table, and their spellings read back from the text at a term's first positions.
type vocabulary struct{ s *Store }

// The fts5vocab table over idx.fts: one row per occurrence of a term (entry, column, token
// position), in the order of the terms. It lives in each read connection's temp schema
// (sqlCreateVocab), as the read connections only read the store's files.
const (
	vocabInstanceTable = "mandelbot_vocab_instance"
	sqlCreateVocab     = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.` + vocabInstanceTable + ` USING fts5vocab(` + indexSchemaName + `, fts, instance)`
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
	n := 0
	err = eachRow(ctx, v.s.read, `SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?`, []any{match, limit}, func(*sql.Rows) error {
		n++
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return n, nil
}

// VocabTerms implements index.Vocabulary, in the order of the terms, each counted up to
// index.MaxSpellEntries: the terms that begin with prefix, walked by NextTerm.
func (v vocabulary) VocabTerms(ctx context.Context, prefix string, limit int) ([]index.VocabTerm, error) {
	var out []index.VocabTerm
	for from := prefix; len(out) < limit; {
		t, ok, err := v.NextTerm(ctx, from)
		if err != nil || !ok || !strings.HasPrefix(t, prefix) {
			return out, err
		}
		n, err := v.TermEntries(ctx, t, index.MaxSpellEntries)
		if err != nil {
			return nil, err
		}
		out, from = append(out, index.VocabTerm{Term: t, Entries: n}), t+index.TermAfter
	}
	return out, nil
}

// NextTerm implements index.TermSeeker: fts5vocab's instance table seeks the term in each
// segment and reads its first occurrence alone, where its row table (one row per term, with its
// entries) reads every entry of every term it passes: the terms of a two-letter prefix held
// 1,035,418 entries at 100,000 documents (sqlite3, 2026-11-27), and reading them was the most
// of a misspelt query's CPU.
func (v vocabulary) NextTerm(ctx context.Context, from string) (string, bool, error) {
	var t string
	err := v.withVocab(ctx, func(conn *sql.Conn) error {
		return conn.QueryRowContext(ctx, `SELECT term FROM `+vocabInstanceTable+` WHERE term >= ? LIMIT 1`, from).Scan(&t)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return t, true, nil
}

// TermEntries implements index.TermSeeker: the entries among the term's occurrences, read in
// entry order until limit entries are seen.
func (v vocabulary) TermEntries(ctx context.Context, term string, limit int) (int, error) {
	var n int
	err := v.withVocab(ctx, func(conn *sql.Conn) error {
		return conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT DISTINCT doc FROM `+vocabInstanceTable+` WHERE term = ? LIMIT ?)`,
			term, limit).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: vocabulary: %w", err)
	}
	return n, nil
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
		ats, err := collect(ctx, conn, func(r *sql.Rows) (a at, err error) { return a, r.Scan(&a.doc, &a.col, &a.offset) },
			`SELECT doc, col, offset FROM `+vocabInstanceTable+` WHERE term = ? LIMIT ?`, term, limit)
		if err != nil {
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
			if w := index.SpellingAt(text, a.offset); w != "" && !slices.Contains(out, w) {
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
