package sqlite

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Issue 8: a new store is made in one step (fresh.go). Its schema is exactly what the
// migrations make of an empty store, in each of its three files: every table, column, index and
// FTS5 table, the FTS5 settings and the schema version. A column, an index or a setting missing
// from fresh.go, or a new migration that fresh.go does not follow, fails here.
func TestFreshSchemaIsWhatTheMigrationsMake(t *testing.T) {
	ctx := context.Background()
	fresh := unmigrated(t)
	if err := fresh.createFresh(ctx); err != nil {
		t.Fatal(err)
	}
	stepped := unmigrated(t)
	if err := stepped.migrateSteps(ctx, 0); err != nil {
		t.Fatal(err)
	}
	got, want := schemaOf(t, fresh), schemaOf(t, stepped)
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("the migrations make %s; a new store does not", line)
		}
	}
	for _, line := range got {
		if !slices.Contains(want, line) {
			t.Errorf("a new store has %s; the migrations do not make it", line)
		}
	}
	if len(want) < 30 {
		t.Errorf("the schema read has %d lines: %q", len(want), want)
	}
}

// Issue 8: a crash after the index and text databases of a new store were made, before the crawl
// database committed its tables and version, leaves a store at version 0; opening it makes the
// store again, usable.
func TestFreshStoreMadeAgainAfterACrash(t *testing.T) {
	ctx := context.Background()
	s := unmigrated(t)
	if _, err := s.write.ExecContext(ctx, freshIndexSchema); err != nil {
		t.Fatal(err)
	}
	if err := s.write.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(ctx, s.path, Options{})
	if err != nil {
		t.Fatalf("open after a crash while the store was made: %v", err)
	}
	defer st.Close()
	var version string
	if err := st.read.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&version); err != nil || version != "16" {
		t.Errorf("schema version %q (%v), want 16", version, err)
	}
}

// unmigrated opens a new store's crawl database, with the index and text databases attached, as
// Store.open does before it migrates, and nothing else.
func unmigrated(t *testing.T) *Store {
	t.Helper()
	s := &Store{path: filepath.Join(t.TempDir(), "crawl.db")}
	var err error
	if s.write, err = openAttached(dsn(s.path, false), attachIndex(s.path, nil, nil)...); err != nil {
		t.Fatal(err)
	}
	s.write.SetMaxOpenConns(1)
	t.Cleanup(func() { s.write.Close() })
	return s
}

// schemaOf describes the schema of s's three databases, one line per object (its SQL with
// spacing and quoting made uniform: ALTER TABLE appends columns with its own spacing, and RENAME
// quotes the new name), per FTS5 setting and per meta row, sorted.
func schemaOf(t *testing.T, s *Store) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	read := func(q string) {
		rows, err := s.write.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		for rows.Next() {
			var a, b, c string
			if err := rows.Scan(&a, &b, &c); err != nil {
				t.Fatal(err)
			}
			out = append(out, a+" "+b+": "+uniformSQL(c))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, db := range []string{"main", indexSchemaName, textSchemaName} {
		read(`SELECT '` + db + `.' || type, name, coalesce(sql, '') FROM ` + db + `.sqlite_master`)
	}
	read(`SELECT 'fts_anchors setting', k, v FROM ` + indexSchemaName + `.fts_anchors_config`)
	read(`SELECT 'fts setting', k, v FROM ` + textSchemaName + `.fts_config`)
	read(`SELECT 'meta', key, value FROM main.meta`)
	slices.Sort(out)
	return out
}

// uniformSQL is q without quotes, with single spaces, and no space inside parentheses or before
// a comma.
func uniformSQL(q string) string {
	q = strings.Join(strings.Fields(strings.NewReplacer(`"`, "", "'", "").Replace(q)), " ")
	return spaceAtPunctuation.ReplaceAllString(q, "$1")
}

var spaceAtPunctuation = regexp.MustCompile(` ?([(),]) ?`)
