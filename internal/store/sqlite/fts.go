package sqlite

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
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

// ftsRow is an entry's FTS5 row as written, with its document's content hash.
type ftsRow struct {
	id                                               int64
	title, anchors, headings, body, urlwords, idents string
	hash                                             uint64 // index.ContentHash; 0 for a link-only entry
}

// row computes the entry's FTS5 row: text without control characters, the URL's words, the
// identifier parts, and a document's content hash.
func (e entry) row() ftsRow {
	r := ftsRow{id: e.id, title: noControls(e.title), anchors: noControls(e.anchors), headings: noControls(e.headings),
		body: noControls(e.body), urlwords: urlWords(e.url), idents: index.IdentifierParts(e.title, e.headings, e.body)}
	if !e.linkOnly {
		r.hash = index.ContentHash(r.title, r.body)
	}
	return r
}

// maxRowWorkers bounds the goroutines that compute one chunk's FTS5 rows.
const maxRowWorkers = 4

// rowsOf computes the rows of entries (entry.row) on up to min(GOMAXPROCS, maxRowWorkers)
// goroutines, while the caller goes on with its statements (issue 8: it was a sixth of the
// index's catch-up, on the one writer's goroutine); wait returns them, in the entries' order.
func rowsOf(entries []entry) (wait func() []ftsRow) {
	rows := make([]ftsRow, len(entries))
	workers := min(runtime.GOMAXPROCS(0), maxRowWorkers, max(len(entries)/64, 1))
	var wg sync.WaitGroup
	for w := range workers {
		part := entries[w*len(entries)/workers : (w+1)*len(entries)/workers]
		out := rows[w*len(entries)/workers:]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, e := range part {
				out[i] = e.row()
			}
		}()
	}
	return func() []ftsRow {
		wg.Wait()
		return rows
	}
}

// insert writes the row; see writeFTS for when.
func (r ftsRow) insert(ctx context.Context, tx writeTx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts (rowid, title, anchors, headings, body, urlwords, idents) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		r.id, r.title, r.anchors, r.headings, r.body, r.urlwords, r.idents); err != nil {
		return fmt.Errorf("index: entry %d: %w", r.id, err)
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
