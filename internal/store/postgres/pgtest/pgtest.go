// Package pgtest gives tests a PostgreSQL store of their own: a new schema in the local test
// database, dropped when the test ends. It is for tests only.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store/postgres"
)

// DefaultURL is the database tests use: the local PostgreSQL every machine here runs (trust
// authentication). MANDELBOT_TEST_POSTGRES overrides it.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// connectTimeout bounds the check that PostgreSQL is there.
const connectTimeout = 5 * time.Second

// URL returns the test database's URL. When PostgreSQL cannot be reached the test is skipped,
// or fails under MANDELBOT_REQUIRE_ALL=1 (CI: a missing database must not pass as a skip).
func URL(t testing.TB) string {
	t.Helper()
	u := DefaultURL
	if v := os.Getenv("MANDELBOT_TEST_POSTGRES"); v != "" {
		u = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err == nil {
		err = conn.Ping(ctx)
		conn.Close(ctx)
	}
	if err != nil {
		if os.Getenv("MANDELBOT_REQUIRE_ALL") == "1" {
			t.Fatalf("PostgreSQL at %s is required (MANDELBOT_REQUIRE_ALL=1): %v", u, err)
		}
		t.Skipf("PostgreSQL at %s is not reachable: %v", u, err)
	}
	return u
}

// Schema returns the name of a new schema for t, dropped (with everything in it) when t ends.
func Schema(t testing.TB, url string) string {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// Open opens a store in a new schema of its own; the caller closes it. The schema is dropped
// when t ends.
func Open(t testing.TB) *postgres.Store {
	t.Helper()
	url := URL(t)
	s, err := postgres.Open(t.Context(), url, postgres.Options{Schema: Schema(t, url), MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
