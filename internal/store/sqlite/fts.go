package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/fractle/mandelbot/internal/index"
)

// indexSchema (version 2) is the search index: fts holds the searchable text of each entry
// (documents and link-only entries), docs its metadata under the same rowid (the URL ID), links
// the anchor text between URLs, and dirty the URLs whose anchor text changed since their entry
// was written. Version 5 adds staged: documents committed by the crawl and not indexed yet.
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

// entry is one searchable row: fts text plus docs metadata.
type entry struct {
	id                        int64
	title, anchors, body, url string
	headings                  string
	linkOnly, nosnippet       bool
	unavailableAfter          time.Time
	inlinks                   int
}

// insertText writes the entry's FTS5 row; see writeFTS for when.
func (e entry) insertText(ctx context.Context, tx writeTx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts (rowid, title, anchors, headings, body, urlwords, idents) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		e.id, noControls(e.title), noControls(e.anchors), noControls(e.headings), noControls(e.body), urlWords(e.url),
		index.IdentifierParts(e.title, e.headings, e.body)); err != nil {
		return fmt.Errorf("index: entry %d: %w", e.id, err)
	}
	return nil
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
