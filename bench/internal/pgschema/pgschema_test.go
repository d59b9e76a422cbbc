package pgschema

import (
	"context"
	"testing"

	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// Measure counts every table's rows and sizes the schema (what BENCHMARKS.md's rows and bytes
// per URL of issue 12 come from); Drop removes it. Real PostgreSQL (pgtest: skipped without it,
// failing under MANDELBOT_REQUIRE_ALL=1).
func TestMeasureAndDrop(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"CREATE SCHEMA " + schema,
		"CREATE TABLE " + schema + ".a (id int PRIMARY KEY, body text)",
		"CREATE TABLE " + schema + ".b (id int)",
		"INSERT INTO " + schema + ".a SELECT g, repeat('x', 1000) FROM generate_series(1, 300) g",
		"INSERT INTO " + schema + ".b SELECT g FROM generate_series(1, 7) g",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	sz, err := Measure(ctx, url, schema)
	if err != nil {
		t.Fatal(err)
	}
	if len(sz.Rows) != 2 || sz.Rows["a"] != 300 || sz.Rows["b"] != 7 {
		t.Errorf("Rows = %v, want a 300, b 7", sz.Rows)
	}
	if sz.Bytes < 300*1000 {
		t.Errorf("Bytes = %d, want at least the 300 KB of text", sz.Bytes)
	}
	if err := Drop(ctx, url, schema); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema).Scan(&n); err != nil || n != 0 {
		t.Errorf("schema still there after Drop (%d, %v)", n, err)
	}
}
