package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Issue 26 part 4 (one schema): a store made by an earlier build, whatever its version in the
// old history (1 included: the new schema is version 1 too, and must not take it for its own),
// is refused by a crawl and by the read-only opens of export, search and serve, before anything
// is written: the files are byte for byte as they were (same sizes and modification times), and
// no lock, -wal or -shm file appears. The message says why, and how to start again.
func TestEarlierBuildStoreRefusedBeforeAnyWrite(t *testing.T) {
	for _, version := range []string{"1", "5", "16"} {
		for _, readOnly := range []bool{false, true} {
			name := "schema " + version + map[bool]string{false: " crawl", true: " read-only"}[readOnly]
			t.Run(name, func(t *testing.T) {
				path := earlierBuildStore(t, version)
				before := filesIn(t, filepath.Dir(path))
				_, err := Open(t.Context(), path, Options{ReadOnly: readOnly})
				if !errors.Is(err, ErrEarlierBuild) {
					t.Fatalf("open: %v, want ErrEarlierBuild", err)
				}
				for _, want := range []string{"earlier Mandelbot build", "schema is " + version + " ", "--data", "delete " + path} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the message %q does not say %q", err, want)
					}
				}
				if after := filesIn(t, filepath.Dir(path)); !maps.Equal(before, after) {
					t.Errorf("the refused store's files changed:\nbefore %v\nafter  %v", before, after)
				}
			})
		}
	}
}

// Issue 26 part 4: an earlier build's store that crashed (its last commits in its -wal file) is
// refused too, its database and -wal file untouched.
func TestEarlierBuildStoreWithWALRefused(t *testing.T) {
	path := earlierBuildStore(t, "16")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO urls (id, url, origin, state) VALUES (8, 'http://a.test/b', 'http://a.test', 'queued')`); err != nil {
		t.Fatal(err)
	}
	// A copy of the files while the connection is open is what a kill -9 leaves.
	crashed := filepath.Join(t.TempDir(), "crawl.db")
	for _, f := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crashed+f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, readOnly := range []bool{false, true} {
		before := filesIn(t, filepath.Dir(crashed))
		if _, err := Open(t.Context(), crashed, Options{ReadOnly: readOnly}); !errors.Is(err, ErrEarlierBuild) {
			t.Fatalf("read-only %v: open: %v, want ErrEarlierBuild", readOnly, err)
		}
		after := filesIn(t, filepath.Dir(crashed))
		for _, f := range []string{"crawl.db", "crawl.db-wal"} {
			if before[f] != after[f] {
				t.Errorf("read-only %v: %s changed: %v, then %v", readOnly, f, before[f], after[f])
			}
		}
		if _, ok := after["crawl.db.lock"]; ok {
			t.Errorf("read-only %v: a lock file was made", readOnly)
		}
	}
}

// Issue 26 part 4: a new store is marked as schema 1 in its header (application_id and
// user_version), where no earlier build wrote, and holds no schema_version row of the old
// history; it opens again, for a crawl and read-only.
func TestNewStoreIsSchemaOne(t *testing.T) {
	s, path := openTemp(t)
	var app, version, old int
	if err := s.wconn.QueryRowContext(t.Context(), `SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM meta WHERE key = 'schema_version')`).Scan(&app, &version, &old); err != nil {
		t.Fatal(err)
	}
	if app != 0x4d424f54 || version != schemaVersion || old != 0 {
		t.Errorf("application_id %#x, user_version %d, %d schema_version rows; want 0x4d424f54, %d, 0", app, version, old, schemaVersion)
	}
	s.Close()
	for _, readOnly := range []bool{false, true} {
		s, err := Open(t.Context(), path, Options{ReadOnly: readOnly})
		if err != nil {
			t.Fatalf("read-only %v: open again: %v", readOnly, err)
		}
		s.Close()
	}
}

// Issue 26 part 4: a store marked with an earlier layout of the one schema (user_version 1: the
// layout before the links log, the folded table and the head index) is an earlier build's store
// too: refused before anything is written, saying how to start again, never read with tables
// this build does not have.
func TestEarlierLayoutRefusedBeforeAnyWrite(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.wconn.ExecContext(t.Context(), `PRAGMA user_version = 1`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, readOnly := range []bool{false, true} {
		before := filesIn(t, filepath.Dir(path))
		_, err := Open(t.Context(), path, Options{ReadOnly: readOnly})
		if !errors.Is(err, ErrEarlierBuild) {
			t.Fatalf("read-only %v: open: %v, want ErrEarlierBuild", readOnly, err)
		}
		for _, want := range []string{"earlier Mandelbot build", "layout 1", "--data", "delete " + path} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the message %q does not say %q", err, want)
			}
		}
		after := filesIn(t, filepath.Dir(path))
		delete(before, filepath.Base(path)+"-shm")
		delete(after, filepath.Base(path)+"-shm")
		if !maps.Equal(before, after) {
			t.Errorf("read-only %v: the refused store's files changed:\nbefore %v\nafter  %v", readOnly, before, after)
		}
	}
}

// A store of a newer schema, and an SQLite database that is not a crawl's, are refused and left
// as they were.
func TestNewerSchemaAndForeignDatabaseRefused(t *testing.T) {
	s, newer := openTemp(t)
	if _, err := s.wconn.ExecContext(t.Context(), fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	foreign := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite", "file:"+foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA journal_mode = WAL; CREATE TABLE x (y)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for path, want := range map[string]error{newer: ErrNewerSchema, foreign: ErrNotAStore} {
		for _, readOnly := range []bool{false, true} {
			before := filesIn(t, filepath.Dir(path))
			if _, err := Open(t.Context(), path, Options{ReadOnly: readOnly}); !errors.Is(err, want) {
				t.Errorf("%s, read-only %v: %v, want %v", filepath.Base(path), readOnly, err, want)
			}
			// The newer store has its -wal file (the index writer's read-only view of the crawl
			// database keeps it at Close), so it is read through the -shm file, which readers
			// write: every other file stays as it was.
			after := filesIn(t, filepath.Dir(path))
			delete(before, filepath.Base(path)+"-shm")
			delete(after, filepath.Base(path)+"-shm")
			if !maps.Equal(before, after) {
				t.Errorf("%s, read-only %v: files changed:\nbefore %v\nafter  %v", filepath.Base(path), readOnly, before, after)
			}
		}
	}
}

// Issue 8: a crash after the index database of a new store was made, before the crawl
// database committed its tables and marks, leaves a crawl database without tables; opening it
// makes the store again, usable.
func TestNewStoreMadeAgainAfterACrash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "crawl.db")
	db, err := openAttached(dsn(path, false), nil, attachIndex(path, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, indexSchema); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open after a crash while the store was made: %v", err)
	}
	defer s.Close()
	if state, err := readSchema(ctx, s.wconn, path); err != nil || state != schemaCurrent {
		t.Errorf("schema state %v (%v), want current", state, err)
	}
	addURLs(t, s, 1)
}

// earlierBuildStore makes, with raw SQL, what an earlier build left in a --data directory at
// schema version (its crawl database in WAL mode, with a schema_version row in meta, a URL, and
// from version 15 on its index and text databases), closed cleanly; it returns the crawl
// database's path.
func earlierBuildStore(t *testing.T, version string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`PRAGMA journal_mode = WAL`,
		`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
		`CREATE TABLE origins (key TEXT PRIMARY KEY, robots_kind INTEGER NOT NULL DEFAULT 0)`,
		`CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, origin TEXT NOT NULL, state TEXT NOT NULL)`,
		`INSERT INTO meta (key, value) VALUES ('schema_version', '` + version + `')`,
		`INSERT INTO urls (id, url, origin, state) VALUES (7, 'http://a.test/', 'http://a.test', 'fetched')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if v, _ := strconv.Atoi(version); v >= 15 {
		for _, f := range []struct{ path, q string }{
			{indexPath(path), `PRAGMA journal_mode = WAL; CREATE TABLE docs (url_id INTEGER PRIMARY KEY, inlinks INTEGER NOT NULL DEFAULT 0); CREATE TABLE links (from_id INTEGER, to_id INTEGER, anchor TEXT)`},
			{oldTextPath(path), `PRAGMA journal_mode = WAL; CREATE VIRTUAL TABLE fts USING fts5(title, body)`},
		} {
			idb, err := sql.Open("sqlite", "file:"+f.path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := idb.Exec(f.q); err != nil {
				t.Fatal(err)
			}
			idb.Close()
		}
	}
	return path
}

// fileState is what filesIn compares of a file.
type fileState struct {
	size  int64
	mtime time.Time
}

// filesIn lists the files of dir with their sizes and modification times.
func filesIn(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]fileState{}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fileState{fi.Size(), fi.ModTime()}
	}
	return out
}
