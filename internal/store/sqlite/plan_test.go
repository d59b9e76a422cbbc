package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// issue 8 (indexing trails the crawl by a bounded lag): every statement the indexer runs per
// chunk finds its rows through an index. One that scanned the staged table made a 200,000-page
// crawl's indexing quadratic (209 pages/s against 931 at 20,000 pages).
func TestIndexerStatementsUseIndexes(t *testing.T) {
	db := emptyStoreForPlans(t)
	stmts := append([]string{sqlOldTargets, sqlOldEntries, sqlPlanEntries, sqlOldAnchors, sqlOldAnchorIDs, sqlDirtyIDs, sqlLinksTo, sqlDeleteDocs}, foldStatements...)
	stmts = append(stmts, refreshStatements...)
	// Issue 10: so does each read of a batch of EachPage (export --documents).
	stmts = append(stmts, sqlPageHeaders, sqlPageStaged, sqlPageIndexed, sqlPageLinks, sqlURLsByID)
	for _, q := range stmts {
		plan := queryPlan(t, db, q, "[1,2]")
		for _, detail := range plan {
			// json_each is the ID set itself; the FTS5 table is searched by rowid ("INDEX 0:=").
			if strings.HasPrefix(detail, "SCAN ") && !strings.HasPrefix(detail, "SCAN json_each") &&
				!strings.Contains(detail, "VIRTUAL TABLE INDEX 0:=") {
				t.Errorf("%s\n  scans a table: %s", q, detail)
			}
			if strings.Contains(detail, "staged_folded") {
				t.Errorf("%s\n  uses staged_folded, which holds every folded row: %s", q, detail)
			}
		}
		t.Logf("%s\n  %s", q, strings.Join(plan, "; "))
	}
}

// issue 8 item 6 (memory bounded at scale): Counts, run at the end of every crawl, neither sorts
// nor groups the URLs in a temporary B-tree; the GROUP BY it replaced added 133 MB to the peak
// RSS of a crawl of 1.1M URLs.
func TestCountsPlanHasNoTempBTree(t *testing.T) {
	db := emptyStoreForPlans(t)
	for _, q := range []string{sqlCountOrigins, sqlCountURLs} {
		for _, detail := range queryPlan(t, db, q) {
			if strings.Contains(detail, "TEMP B-TREE") {
				t.Errorf("%s\n  sorts in a temporary B-tree: %s", q, detail)
			}
		}
	}
}

// emptyStoreForPlans creates an empty store of the current schema and opens it read-only, for
// EXPLAIN QUERY PLAN; the handle is closed when the test ends.
func emptyStoreForPlans(t *testing.T) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := openAttached("file:"+path+"?mode=ro", attachIndex(path, &searchReaders, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queryPlan is the detail column of EXPLAIN QUERY PLAN for q with args, one entry per line.
func queryPlan(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
