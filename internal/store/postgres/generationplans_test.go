package postgres_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page at 200,000 pages): an anchor generation finds a batch's
// targets through the indexes, one lookup each, and never scans a whole table. With the
// planner's own choice, a batch of 5,000 targets was a sequential scan of heads, links and urls
// (the last two by parallel workers), so every batch cost O(crawl size). Here the tables hold
// genURLs URLs, heads rows and genLinks links, analyzed, and a batch of genTargets targets: the
// sizes at which the planner, left alone, scans them.
func TestGenerationReadsTargetsThroughIndexes(t *testing.T) {
	const (
		genURLs    = 20_000
		genLinks   = 4 * genURLs
		genTargets = 5_000
	)
	s := pgtest.Open(t)
	defer s.Close()
	conn := schemaConn(t, s)
	if _, err := conn.Exec(t.Context(), fmt.Sprintf(`
		INSERT INTO urls (id, seq, url, origin, state, discovered_at)
			SELECT i, i, 'http://a.test/p' || i, 'http://a.test', 'queued', now() FROM generate_series(1, %[1]d) AS i;
		INSERT INTO heads (url_id, link_only, base) SELECT i, true, '' FROM generate_series(1, %[1]d) AS i;
		INSERT INTO links (from_id, to_id, anchor) SELECT i %% %[1]d + 1, (i * 7919) %% %[1]d + 1, 'walrus ' || i
			FROM generate_series(1, %[2]d) AS i;
		ANALYZE urls; ANALYZE heads; ANALYZE links`, genURLs, genLinks)); err != nil {
		t.Fatal(err)
	}
	targets := make([]int64, genTargets)
	for i := range targets {
		targets[i] = int64(i*(genURLs/genTargets) + 1)
	}
	plans, err := postgres.GenerationPlans(t.Context(), s, targets)
	if err != nil {
		t.Fatal(err)
	}
	for i, plan := range plans {
		for _, scan := range []string{"Seq Scan", "Hash Join", "Merge Join", "Gather"} {
			if strings.Contains(plan, scan) {
				t.Errorf("statement %d of a generation plans a %s over the whole table:\n%s", i, scan, plan)
			}
		}
	}
}
