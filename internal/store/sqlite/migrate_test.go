package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
)

// Issue 8: migration 15 moves the index of a crawl database written before it (one file) into
// the index and text databases, searchable as before; and after a crash between the copy and
// the step that drops the old tables (the copy committed, the crawl database not), opening the
// store again copies again and loses nothing. Migration 16 then numbers the entries (nums.go):
// an entry indexed before it keeps its rows, under its URL ID as its number.
func TestMigrationMovesTheIndexToItsOwnFiles(t *testing.T) {
	for _, crashAfterCopy := range []bool{false, true} {
		t.Run("crash after copy "+strconv.FormatBool(crashAfterCopy), func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "crawl.db")
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			for v := range 14 {
				if _, err := db.ExecContext(ctx, migrations[v]); err != nil {
					t.Fatalf("migration %d: %v", v+1, err)
				}
			}
			for _, q := range []string{
				`INSERT INTO meta (key, value) VALUES ('schema_version', '14')`,
				`INSERT INTO urls (id, url, origin, state, fetched_at) VALUES (7, 'http://a.test/walrus', 'http://a.test', 'fetched', 1)`,
				`INSERT INTO docs (url_id, inlinks) VALUES (7, 1)`,
				`INSERT INTO fts (rowid, title, headings, body, urlwords, idents) VALUES (7, 'Walrus', '', 'tusks and flippers', 'a test walrus', '')`,
				`INSERT INTO fts_anchors (rowid, anchors) VALUES (7, 'narwhal cousin')`,
				`INSERT INTO links (from_id, to_id, anchor) VALUES (8, 7, 'narwhal cousin')`,
				// A text row no entry has: left by an index transaction that did not commit.
				`INSERT INTO fts (rowid, title, headings, body, urlwords, idents) VALUES (9, 'Orphan', '', 'dugong', '', '')`,
			} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if crashAfterCopy {
				if _, err := db.ExecContext(ctx, attachIndex(path, nil, nil)[0]); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ExecContext(ctx, `ATTACH DATABASE '`+textPath(path)+`' AS `+textSchemaName); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ExecContext(ctx, indexMigrations[14]); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()

			s, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for word, want := range map[string]int{"tusks": 1, "narwhal": 1, "walrus": 1} {
				p, err := s.Search(ctx, index.Query{Text: word, Limit: 10, Now: t0})
				if err != nil || p.Total != want {
					t.Errorf("search %q: %d results (%v), want %d", word, p.Total, err, want)
				}
			}
			var n int
			if err := s.wconn.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name IN ('fts', 'fts_anchors', 'docs', 'links')`).Scan(&n); err != nil || n != 0 {
				t.Errorf("the crawl database still has %d of the index's tables (%v)", n, err)
			}
			// Migration 16: the entry is numbered by its URL ID, where its rows are; the orphan
			// row is gone; a new entry gets the first number (nums.go), and both are found.
			if got := numOf(t, s, 7); got != 7 {
				t.Errorf("the entry indexed before migration 16: number %d, want 7 (its URL ID)", got)
			}
			if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM fts WHERE rowid = 9`).Scan(&n); err != nil || n != 0 {
				t.Errorf("the orphan text row: %d (%v), want gone", n, err)
			}
			us := addURLs(t, s, 1)
			commitFetched(t, s, us, func(int) string { return "walrus calf" }, false)
			if _, err := s.RefreshIndex(ctx); err != nil {
				t.Fatal(err)
			}
			if got := numOf(t, s, us[0].ID); got != firstNum {
				t.Errorf("the first entry made after migration 16: number %d, want %d", got, firstNum)
			}
			for word, want := range map[string]int{"walrus": 2, "calf": 1, "dugong": 0} {
				p, err := s.Search(ctx, index.Query{Text: word, Limit: 10, Now: t0})
				if err != nil || p.Total != want {
					t.Errorf("after migration 16, search %q: %d results (%v), want %d", word, p.Total, err, want)
				}
			}
		})
	}
}
