package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/fractle/mandelbot/internal/index"
)

// The search index is three FTS5 tables under the same rowid, the entry's number (docs.num,
// nums.go):
//
//   - fts (title, headings, body, urlwords, idents): what the page says, written by the fold
//     (indexStagedLocked) once per fetch, and a link-only entry's URL words, written when the entry
//     appears;
//   - head (title, headings, urlwords, idents): the head index (issue 26 part 3, head.go), the
//     same row without the body, and the identifier parts of the title and headings only:
//     written beside the fts row, by the same statements' caller (writeOwn), so that an entry
//     has a head row exactly when it has an fts row;
//   - fts_anchors (anchors): the anchor text of links to the URL, rewritten in generations
//     (anchors.go) when its inlinks double or halve: a short row, so new links never make a page's text be
//     tokenized again (issue 8). It is contentless (content='', contentless_delete=1): FTS5 keeps
//     the terms, not the text, and deletes a row by its rowid, where a table with content read
//     the old text back and tokenized it again; a generation rewrites rows at random entry
//     numbers, and the text pages were written again by nearly every merge (layout-plan.md).
//     Nothing reads the text: a link-only entry's snippet is made from its links (search.go).
//
// docs holds each entry's metadata. Once the link merge has reached an entry (linklog.go), it has
// a row in each of docs, fts and fts_anchors, or in none; between its fold and that merge it has
// no fts_anchors row (index.go, tail). An entry without anchor text has an empty fts_anchors row,
// so that bm25 measures how rare a word is in anchor text against every entry (with only the rows
// that have anchor text, a word in most of them would count for nothing), as it did when anchors
// were a column of fts.

// ownText is a document's own text as the fold reads it from the stage.
type ownText struct {
	id, num                    int64 // URL ID, and the entry's number (nums.go)
	url, title, headings, body string
}

// ownRow is an entry's fts and head rows as written, under its number (nums.go), with a
// document's content hash (0 for a link-only entry, which has only its URL's words).
type ownRow struct {
	id, num                                 int64 // URL ID, and the row's rowid
	title, headings, body, urlwords, idents string
	headIdents                              string // the identifier parts of the title and headings: the head's
	hash                                    uint64 // index.ContentHash
}

// row computes the document's fts and head rows: text without control characters, the URL's
// words, the identifier parts, and the content hash.
func (d ownText) row() ownRow {
	r := ownRow{id: d.id, num: d.num, title: noControls(d.title), headings: noControls(d.headings), body: noControls(d.body),
		urlwords: urlWords(d.url), idents: index.IdentifierParts(d.title, d.headings, d.body),
		headIdents: index.IdentifierParts(d.title, d.headings)}
	r.hash = index.ContentHash(r.title, r.body)
	return r
}

// linkOnlyRow is the fts row of a link-only entry: its URL's words.
func linkOnlyRow(id, num int64, url string) ownRow {
	return ownRow{id: id, num: num, urlwords: urlWords(url)}
}

// maxRowWorkers bounds the goroutines that compute one chunk's FTS5 rows.
const maxRowWorkers = 4

// rowsOf computes the rows of docs (ownText.row) on up to min(GOMAXPROCS, maxRowWorkers)
// goroutines, while the caller goes on with its statements (issue 8: tokenizing identifiers and
// hashing is a sixth of the index's work, kept off the one writer's goroutine); wait returns
// them, in the docs' order.
func rowsOf(docs []ownText) (wait func() []ownRow) {
	rows := make([]ownRow, len(docs))
	workers := min(runtime.GOMAXPROCS(0), maxRowWorkers, max(len(docs)/64, 1))
	var wg sync.WaitGroup
	for w := range workers {
		part := docs[w*len(docs)/workers : (w+1)*len(docs)/workers]
		out := rows[w*len(docs)/workers:]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, d := range part {
				out[i] = d.row()
			}
		}()
	}
	return func() []ownRow {
		wg.Wait()
		return rows
	}
}

// insert writes the fts row and the head row; see writeOwn for when.
func (r ownRow) insert(ctx context.Context, tx writeTx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO fts (rowid, title, headings, body, urlwords, idents) VALUES (?, ?, ?, ?, ?, ?)`,
		r.num, r.title, r.headings, r.body, r.urlwords, r.idents); err != nil {
		return fmt.Errorf("index: entry %d: %w", r.id, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO head (rowid, title, headings, urlwords, idents) VALUES (?, ?, ?, ?, ?)`,
		r.num, r.title, r.headings, r.urlwords, r.headIdents); err != nil {
		return fmt.Errorf("index: entry %d: head: %w", r.id, err)
	}
	return nil
}

// anchorRow is an entry's fts_anchors row, under its number (nums.go): the anchor text of links
// to it (readAnchors).
type anchorRow struct {
	num  int64
	text string
}

// writeOwn removes the fts and head rows of drop (numbers) and inserts rows, and writeAnchors does
// the same in fts_anchors with drop and anchors: they are the last statements of their
// transaction. Any statement that opens a statement journal makes FTS5
// write its pending terms out as a segment of their own, so nothing else may come between (issue 8:
// writing FTS5 rows last was 2.3-2.6x faster). And FTS5 writes its pending terms out whenever a
// row's rowid is lower than the last one written (or the same, but not right after its delete): the
// rows of each table go in rowid order (the entries' numbers), each rowid's delete just before its
// insert, or every row became a segment of its own and merging them was most of the crawl's CPU.
// Both sort their slices.
func writeOwn(ctx context.Context, tx writeTx, drop []int64, rows []ownRow) error {
	err := inIDOrder(drop, rows, func(r ownRow) int64 { return r.num }, func(id int64) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM head WHERE rowid = ?`, id)
		return err
	}, func(r ownRow) error { return r.insert(ctx, tx) })
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// writeAnchors: see writeOwn.
func writeAnchors(ctx context.Context, tx writeTx, drop []int64, anchors []anchorRow) error {
	err := inIDOrder(drop, anchors, func(a anchorRow) int64 { return a.num }, func(id int64) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM fts_anchors WHERE rowid = ?`, id)
		return err
	}, func(a anchorRow) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fts_anchors (rowid, anchors) VALUES (?, ?)`, a.num, noControls(a.text))
		return err
	})
	if err != nil {
		return fmt.Errorf("index: anchor text: %w", err)
	}
	return nil
}

// inIDOrder calls del for each of drop and ins for each of rows, in ID order, an ID's del
// before its ins. It sorts drop and rows.
func inIDOrder[R any](drop []int64, rows []R, id func(R) int64, del func(int64) error, ins func(R) error) error {
	slices.Sort(drop)
	slices.SortFunc(rows, func(a, b R) int { return cmp.Compare(id(a), id(b)) })
	i := 0
	for _, d := range drop {
		for ; i < len(rows) && id(rows[i]) < d; i++ {
			if err := ins(rows[i]); err != nil {
				return err
			}
		}
		if err := del(d); err != nil {
			return fmt.Errorf("remove %d: %w", d, err)
		}
	}
	for ; i < len(rows); i++ {
		if err := ins(rows[i]); err != nil {
			return err
		}
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
