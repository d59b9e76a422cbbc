package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page): the crawl process builds an entry's tsvector instead of
// the server's to_tsvector, and must build the same one, or a query's to_tsquery would not find
// what the index holds. It builds it in the binary format, so that the server need not parse a
// literal: compared byte for byte with what PostgreSQL itself sends of to_tsvector's
// (tsvectorsend, the canonical form: lexemes in order, positions ascending), field by field
// with their weights concatenated as the fold does: generated the project's docs, numbers the
// parser reads apart ("12e5abc"), stems, a word repeated past the 255 positions to_tsvector
// keeps, a text past the last position, and a word longer than PostgreSQL indexes. Text that is
// not ASCII is left to to_tsvector (ok false).
func TestTSVectorMatchesToTSVector(t *testing.T) {
	url := pgtest.URL(t)
	s := pgtest.Open(t)
	defer s.Close()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), `SET search_path = `+s.Schema()); err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"", "walrus", "Running runners ran; the keys' keyed KEYS", "12e5abc 1e1e1 007e3 0x1f 12e e5 5e 1e05 123456789012345678901234567890",
		strings.Repeat("tusk ", 300), strings.Repeat("word", 600), strings.Repeat("w", 2100) + " after",
		strings.Repeat("one two three four five six seven eight nine ten ", 1700) + " last",
	}
	for _, doc := range []string{"../../../docs/design.md", "../../../docs/robots-rules.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for len(b) > 0 { // pages of 8 KB of the project's own prose, code and numbers
			n := min(len(b), 8<<10)
			texts = append(texts, string(b[:n]))
			b = b[n:]
		}
	}
	weights := []byte("ABCD")
	for i, text := range texts {
		var fields []postgres.TSVField
		var sql []string
		args := []any{}
		for j := range 4 {
			words := postgres.SearchWords(texts[(i+j)%len(texts)])
			if j == 0 {
				words = postgres.SearchWords(text)
			}
			fields = append(fields, postgres.NewTSVField(words, weights[j]))
			args = append(args, words)
			sql = append(sql, fmt.Sprintf(`setweight(to_tsvector('mandelbot_words', $%d), '%c')`, j+1, weights[j]))
		}
		built, ok, err := postgres.TSVector(t.Context(), s, fields...)
		if err != nil || !ok {
			t.Fatalf("text %d: TSVector: ok %v, %v", i, ok, err)
		}
		var sent []byte
		var want string
		if err := conn.QueryRow(t.Context(), `SELECT tsvectorsend(x), x::text FROM (SELECT `+strings.Join(sql, " || ")+` AS x) v`, args...).Scan(&sent, &want); err != nil {
			t.Fatalf("text %d: %v", i, err)
		}
		if !bytes.Equal(built, sent) {
			t.Errorf("text %d (%.40q): built %d bytes %.80x\nto_tsvector's %d bytes %.80x (%.300s)", i, text, len(built), built, len(sent), sent, want)
		}
		// The server reads it as that tsvector, alone and in an array (the fold's statements).
		alone, inArray, err := postgres.TSVectorText(t.Context(), s, built)
		if err != nil || alone != want || inArray != want {
			t.Errorf("text %d: the server read %.300q and %.300q, want %.300q (%v)", i, alone, inArray, want, err)
		}
	}
	if _, ok, err := postgres.TSVector(t.Context(), s, postgres.NewTSVField(postgres.SearchWords("straße 日本語"), 'A')); err != nil || ok {
		t.Errorf("text that is not ASCII: ok %v, %v; want it left to to_tsvector", ok, err)
	}
}
