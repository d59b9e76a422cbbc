package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion and LayoutKey are the schema's version and the meta key that holds it, for the
// package's external tests.
const (
	SchemaVersion = schemaVersion
	LayoutKey     = layoutKey
)

// TSQuery is tsQuery, for the tests of package postgres_test.
var TSQuery = tsQuery

// TSVField is a field of an entry's tsvector: words (searchWords' output) and a weight.
type TSVField = tsvField

// SearchWords is searchWords, for the tests of package postgres_test.
var SearchWords = searchWords

// NewTSVField returns a field of words of weight w.
func NewTSVField(words string, w byte) TSVField { return tsvField{words: words, weight: w} }

// TSVLiteral builds the tsvector literal of fields on s as the fold does (stems looked up
// first), and whether it could.
func TSVLiteral(ctx context.Context, s *Store, fields ...TSVField) (string, bool, error) {
	var lit string
	var ok bool
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		lits, err := s.literals(ctx, tx, [][]tsvField{fields})
		if err == nil && lits[0] != nil {
			lit, ok = *lits[0], true
		}
		return err
	})
	return lit, ok, err
}
