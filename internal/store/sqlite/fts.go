package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fractle/mandelbot/internal/store"
)

// indexSchema (version 2) is the search index: fts holds the searchable text of each entry
// (documents and link-only entries), docs its metadata under the same rowid (the URL ID), links
// the anchor text between URLs, and dirty the URLs whose anchor text changed since their entry
// was written.
const indexSchema = `
	CREATE VIRTUAL TABLE fts USING fts5(title, anchors, body, urlwords, tokenize = 'unicode61 remove_diacritics 2');
	CREATE TABLE docs (
		url_id INTEGER PRIMARY KEY,
		link_only INTEGER NOT NULL DEFAULT 0,
		nosnippet INTEGER NOT NULL DEFAULT 0,
		unavailable_after INTEGER NOT NULL DEFAULT 0,
		inlinks INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE links (
		from_id INTEGER NOT NULL,
		to_id INTEGER NOT NULL,
		anchor TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (from_id, to_id, anchor)
	) WITHOUT ROWID;
	CREATE INDEX links_to ON links (to_id);
	CREATE TABLE dirty (url_id INTEGER PRIMARY KEY);`

// applyIndex writes the batch's links and documents inside the commit's transaction. newIDs maps
// the URLs the batch added to their IDs.
func (s *Store) applyIndex(ctx context.Context, tx writeTx, b store.Batch, newIDs map[string]int64) error {
	for _, d := range b.Documents {
		// A fetch replaces the page's outgoing links: the old targets lose its anchor text.
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO dirty (url_id) SELECT to_id FROM links WHERE from_id = ?`, d.URLID); err != nil {
			return fmt.Errorf("index: links of %d: %w", d.URLID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE from_id = ?`, d.URLID); err != nil {
			return fmt.Errorf("index: links of %d: %w", d.URLID, err)
		}
	}
	for _, l := range b.Links {
		to, ok := newIDs[l.To]
		if !ok {
			err := tx.QueryRowContext(ctx, `SELECT id FROM urls WHERE url = ?`, l.To).Scan(&to)
			if errors.Is(err, sql.ErrNoRows) {
				continue // not a URL the crawl records (it could not be parsed)
			}
			if err != nil {
				return fmt.Errorf("index: link to %s: %w", l.To, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO links (from_id, to_id, anchor) VALUES (?, ?, ?)`,
			l.FromID, to, cutUTF8(l.Anchor, store.MaxAnchorBytes)); err != nil {
			return fmt.Errorf("index: link to %s: %w", l.To, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO dirty (url_id) VALUES (?)`, to); err != nil {
			return fmt.Errorf("index: link to %s: %w", l.To, err)
		}
	}
	for _, d := range b.Documents {
		if err := s.writeDocument(ctx, tx, d); err != nil {
			return err
		}
	}
	return nil
}

// writeDocument makes a fetched URL's entry match its Document: a searchable document, or
// nothing at all (rule 27: not even a link-only entry).
func (s *Store) writeDocument(ctx context.Context, tx writeTx, d store.Document) error {
	if err := deleteEntry(ctx, tx, d.URLID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM dirty WHERE url_id = ?`, d.URLID); err != nil {
		return fmt.Errorf("index: document %d: %w", d.URLID, err)
	}
	if !d.Index {
		return nil
	}
	var rawURL string
	if err := tx.QueryRowContext(ctx, `SELECT url FROM urls WHERE id = ?`, d.URLID).Scan(&rawURL); err != nil {
		return fmt.Errorf("index: document %d: %w", d.URLID, err)
	}
	anchors, inlinks, err := anchorsOf(ctx, tx, d.URLID)
	if err != nil {
		return err
	}
	e := entry{id: d.URLID, title: d.Title, anchors: anchors, body: cutUTF8(d.Text, store.MaxIndexedTextBytes),
		url: rawURL, nosnippet: d.NoSnippet, unavailableAfter: d.UnavailableAfter, inlinks: inlinks}
	return e.insert(ctx, tx)
}

// entry is one searchable row: fts text plus docs metadata.
type entry struct {
	id                        int64
	title, anchors, body, url string
	linkOnly, nosnippet       bool
	unavailableAfter          time.Time
	inlinks                   int
}

func (e entry) insert(ctx context.Context, tx writeTx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts (rowid, title, anchors, body, urlwords) VALUES (?, ?, ?, ?, ?)`,
		e.id, noControls(e.title), noControls(e.anchors), noControls(e.body), urlWords(e.url)); err != nil {
		return fmt.Errorf("index: entry %d: %w", e.id, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO docs (url_id, link_only, nosnippet, unavailable_after, inlinks)
		VALUES (?, ?, ?, ?, ?)`, e.id, boolInt(e.linkOnly), boolInt(e.nosnippet), unix(e.unavailableAfter), e.inlinks); err != nil {
		return fmt.Errorf("index: entry %d: %w", e.id, err)
	}
	return nil
}

func deleteEntry(ctx context.Context, tx writeTx, id int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid = ?`, id); err != nil {
		return fmt.Errorf("index: remove %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM docs WHERE url_id = ?`, id); err != nil {
		return fmt.Errorf("index: remove %d: %w", id, err)
	}
	return nil
}

// anchorsOf returns the distinct anchor texts of links to id (most used first, at most
// MaxAnchorsPerURL) and how many pages link to it.
func anchorsOf(ctx context.Context, tx writeTx, id int64) (string, int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT anchor FROM links WHERE to_id = ? AND anchor != ''
		GROUP BY anchor ORDER BY COUNT(*) DESC, anchor LIMIT ?`, id, store.MaxAnchorsPerURL)
	if err != nil {
		return "", 0, fmt.Errorf("index: anchors of %d: %w", id, err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return "", 0, fmt.Errorf("index: anchors of %d: %w", id, err)
		}
		if b.Len() > 0 {
			b.WriteString(" \u2022 ")
		}
		b.WriteString(a)
	}
	if err := rows.Err(); err != nil {
		return "", 0, fmt.Errorf("index: anchors of %d: %w", id, err)
	}
	var inlinks int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT from_id) FROM links WHERE to_id = ?`, id).Scan(&inlinks); err != nil {
		return "", 0, fmt.Errorf("index: inlinks of %d: %w", id, err)
	}
	return b.String(), inlinks, nil
}

// urlWords makes the words of a URL searchable: host labels and path segments, without the scheme.
func urlWords(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, u)
}

// cutUTF8 cuts s to at most n bytes without splitting a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// noControls replaces C0 and C1 control characters with spaces: page text must never carry the
// snippet markers, nor terminal escape sequences into `mandelbot search` output.
func noControls(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r < 0xa0) }
