package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// SQL of Counts. Neither sorts nor groups in SQLite: a GROUP BY over urls had SQLite sort every
// URL in a temporary B-tree, which at the end of a crawl of 1,130,514 URLs added 133 MB to the
// process's peak RSS (issue 8 item 6: a crawl's memory is bounded at scale). TestCountsPlan
// keeps both plans free of temporary B-trees.
const (
	sqlCountOrigins = `SELECT key, ` + originStatusColumns + ` FROM origins`
	sqlCountURLs    = `SELECT origin, state FROM urls`
)

// Counts implements store.Store: per origin and state, then store.Effective with the origin's
// pause and robots.txt status at now. It reads the origins, then streams the URLs' origin and
// state in table order, counting in a map of one entry per (origin, state) present; its memory
// is that map and the read connection's page cache, however many URLs there are.
func (s *Store) Counts(ctx context.Context, now time.Time) (map[store.State]int, error) {
	statuses, err := s.originStatuses(ctx)
	if err != nil {
		return nil, err
	}
	type key struct{ origin, state string }
	counts := map[key]int{}
	var origin, state sql.RawBytes
	err = eachRow(ctx, s.read, sqlCountURLs, nil, func(r *sql.Rows) error {
		err := r.Scan(&origin, &state)
		counts[key{string(origin), string(state)}]++
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: counts: %w", err)
	}
	out := map[store.State]int{}
	for k, n := range counts {
		eff, _ := store.Effective(store.State(k.state), "", statuses[k.origin], now)
		out[eff] += n
	}
	return out, nil
}

// originStatuses reads every origin's pause and robots.txt status, by key. An origin without a
// row has the zero status (as the LEFT JOIN gave before).
func (s *Store) originStatuses(ctx context.Context) (map[string]store.OriginStatus, error) {
	out := map[string]store.OriginStatus{}
	err := eachRow(ctx, s.read, sqlCountOrigins, nil, func(r *sql.Rows) error {
		var k string
		var os originStatus
		err := r.Scan(append([]any{&k}, os.dest()...)...)
		out[k] = os.status()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: counts: origins: %w", err)
	}
	return out, nil
}
