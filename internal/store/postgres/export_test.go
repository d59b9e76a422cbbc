package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
)

// SchemaVersion and LayoutKey are the schema's version and the meta key that holds it, for the
// package's external tests.
const (
	SchemaVersion = schemaVersion
	LayoutKey     = layoutKey
)

// AnchorLogSize is how many link_log rows start an anchor generation from IndexPending.
const AnchorLogSize = anchorLogSize

// TSQuery is tsQuery, for the tests of package postgres_test.
var TSQuery = tsQuery

// TSVField is a field of an entry's tsvector: words (searchWords' output) and a weight.
type TSVField = tsvField

// SearchWords is searchWords, for the tests of package postgres_test.
var SearchWords = searchWords

// NewTSVField returns a field of words of weight w.
func NewTSVField(words string, w byte) TSVField { return tsvField{words: words, weight: w} }

// TSVector builds the tsvector of fields on s as the fold does (stems looked up first), in the
// binary format it is sent in, and whether it could.
func TSVector(ctx context.Context, s *Store, fields ...TSVField) ([]byte, bool, error) {
	var v []byte
	var ok bool
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		vs, err := s.vectors(ctx, tx, [][]tsvField{fields})
		if err == nil && vs[0].bin != nil {
			v, ok = vs[0].bin, true
		}
		return err
	})
	return v, ok, err
}

// TSVectorText sends v (TSVector's) to the server through s's pool as a tsvector parameter,
// alone and in an array, and returns the text the server reads it as, each way.
func TSVectorText(ctx context.Context, s *Store, v []byte) (alone, inArray string, err error) {
	err = s.pool.QueryRow(ctx, `SELECT $1::tsvector::text, ($2::tsvector[])[2]::text`, tsvector{v}, []tsvector{{}, {v}}).Scan(&alone, &inArray)
	return alone, inArray, err
}

// SessionSetting returns the value of the setting name on a connection of s's pool.
func SessionSetting(ctx context.Context, s *Store, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&v)
	return v, err
}

// GenerationPlans returns the plans (EXPLAIN) of an anchor generation's statements on targets,
// made in a transaction set up as a generation's is: due targets, anchor texts, entries.
func GenerationPlans(ctx context.Context, s *Store, targets []int64) ([]string, error) {
	var plans []string
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		plans = nil
		if err := generationPlans(ctx, tx); err != nil {
			return err
		}
		for _, q := range []struct {
			sql  string
			args []any
		}{{sqlDueTargets, []any{targets}}, {sqlAnchorTexts, []any{targets, store.MaxAnchorsPerURL}}, {sqlEntries, []any{targets}}} {
			rows, _ := tx.Query(ctx, "EXPLAIN "+q.sql, q.args...)
			lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			plans = append(plans, strings.Join(lines, "\n"))
		}
		return nil
	})
	return plans, err
}

// MergeAnchors folds every staged document, then runs an anchor generation by the power-of-two
// rule: IndexPending's, run whatever the log's size, for the tests of generations and the
// conformance suite (which wants every link change merged at once: storetest.Run).
func (s *Store) MergeAnchors(ctx context.Context) (int, error) { return s.foldAndGenerate(ctx, false) }

// SQLAnchorVotes is sqlAnchorVotes, for the tests of package postgres_test.
const SQLAnchorVotes = sqlAnchorVotes
