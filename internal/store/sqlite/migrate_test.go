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
// store again copies again and loses nothing.
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
		})
	}
}
