package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Every rendering is a valid tsquery on a real PostgreSQL, whatever was typed.
func TestTSQueryValidOnPostgreSQL(t *testing.T) {
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, in := range []string{`a'b & c|d !e <-> (f):*`, `"x\\' y" OR z*`, `-x y`, `x OR "y z" OR zz*`, "\\'':*|&!", `ünï*cödé ∑`} {
		q, err := postgres.TSQuery(index.Parse(in))
		if err != nil {
			continue // no word: never sent
		}
		if _, err := conn.Exec(t.Context(), `SELECT to_tsquery('simple', $1)`, q); err != nil {
			t.Errorf("%q renders as %q: %v", in, q, err)
		}
	}
}
