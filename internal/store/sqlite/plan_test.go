package sqlite

import (
	"context"
	"database/sql"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/storetest"
)

// Issue 30 part 5 (the query-plan test takes every statement the store prepares, with none left
// out) and issue 8 (indexing trails the crawl by a bounded lag: one statement that scanned the
// staged table made a 200,000-page crawl's indexing quadratic, 209 pages/s against 931 at 20,000
// pages). The statements are not a list kept by hand: they are every statement the store's
// connections ran during the conformance suite (Options.observe), and every piece of SQL text
// written in the package's code must be part of one of them, so that a statement the suite never
// runs fails here. Each one finds its rows through an index, or is in wholeTable with the reason
// it reads a whole table.
func TestEveryStatementUsesIndexes(t *testing.T) {
	ran := statementsRun(t)
	if t.Failed() {
		t.FailNow()
	}
	for _, missing := range uncovered(sqlInCode(t), ran) {
		t.Errorf("%s: this SQL is in no statement the conformance suite ran, so its plan is not checked: give the suite a check that runs it", missing)
	}
	db := emptyStoreForPlans(t)
	used := map[string]bool{}
	for _, q := range slices.Sorted(func(yield func(string) bool) {
		for q := range ran {
			if !yield(q) {
				return
			}
		}
	}) {
		if !plannable(q) {
			continue
		}
		plan := queryPlan(t, db, q)
		if key, ok := readsWholeTable(q); ok {
			used[key] = true
			continue
		}
		for _, detail := range fullScans(plan) {
			t.Errorf("%.300s\n  scans a table: %s", oneLine(q), detail)
		}
		t.Logf("%.300s\n  %s", oneLine(q), strings.Join(plan, "; "))
	}
	for key := range wholeTable {
		if !used[key] {
			t.Errorf("wholeTable lists %q, which no statement run holds: remove it", key)
		}
	}
	if n := len(ran); n < 60 {
		t.Errorf("only %d statements were run; the observer misses some", n)
	}
}

// The checks of TestEveryStatementUsesIndexes catch what they are for (issue 30 part 5): a plan
// that scans a table, and SQL that no statement run holds.
func TestStatementChecksCatchMutants(t *testing.T) {
	db := emptyStoreForPlans(t)
	if got := fullScans(queryPlan(t, db, `SELECT id FROM urls WHERE url = ?`)); len(got) != 1 {
		t.Errorf("a lookup by a column without an index: scans %q, want one", got)
	}
	if got := fullScans(queryPlan(t, db, `SELECT rowid FROM fts`)); len(got) != 1 {
		t.Errorf("a walk of a whole FTS5 table: scans %q, want one", got)
	}
	if got := fullScans(queryPlan(t, db, `SELECT id FROM urls WHERE id `+inSet, "[1]")); len(got) != 0 {
		t.Errorf("a seek by the unique index: scans %q, want none", got)
	}
	// A subquery's own rows are read by a SCAN of it, but what it reads is caught on its own.
	if got := fullScans(queryPlan(t, db, `SELECT x.id FROM (SELECT id FROM urls WHERE url > ? ORDER BY url LIMIT 5) AS x JOIN urls ON urls.id = x.id`, "a")); len(got) != 1 {
		t.Errorf("a subquery walking a table: scans %q, want one", got)
	}
	if got := fullScans(queryPlan(t, db, `SELECT x.id FROM (SELECT id FROM urls WHERE id `+inSet+` ORDER BY url LIMIT 5) AS x JOIN urls ON urls.id = x.id`, "[1]")); len(got) != 0 {
		t.Errorf("a subquery seeking by the unique index: scans %q, want none", got)
	}
	code := map[string]string{"x.go:1": "SELECT a FROM b WHERE c = ?", "x.go:2": "DELETE FROM d"}
	if got := uncovered(code, map[string]bool{"SELECT a FROM b WHERE c = ? LIMIT 1": true}); !slices.Equal(got, []string{"x.go:2: DELETE FROM d"}) {
		t.Errorf("uncovered = %q, want the DELETE only", got)
	}
}

// wholeTable holds the statements that read a whole table by design, by a piece of their text,
// with the reason.
var wholeTable = map[string]string{
	sqlCountURLs:    "Counts, once at the end of a crawl: every URL's state (TestCountsPlanHasNoTempBTree)",
	sqlCountOrigins: "Counts: every origin's pause and robots.txt status, beside the URLs'",
	`SELECT ` + urlColumns + ` FROM urls ORDER BY seq`:       "EachURL: every URL, in discovery order (the rowid)",
	`SELECT ` + originColumns + ` FROM origins ORDER BY key`: "EachOrigin: every origin, in key order (its primary key)",
	`FROM urls WHERE depth = 0 AND hops = 0`:                 "Seeds, once when a crawl resumes",
	`AS due FROM origins`:                                    "LeaseOrigins: one seek in urls_origin per origin, O(origins) not O(URLs)",
	`UPDATE urls SET next_at`:                                "Reschedule, once per command: every fetched URL of a state",
	`SELECT COUNT(*) FROM staged`:                            "IndexLag: the stage's count, on its smallest index",
	sqlLinkRows:                                              "mergeLeast, once per process: links' rows, which merges wait for a share of (mergeLogShare)",
	`FROM pragma_application_id`:                             "readSchema, once per Open: the header and sqlite_master",
	`.sqlite_master WHERE type = 'table'`:                    "checkIndexFiles, once per Open: the index files' tables",
	`FROM ` + vocabInstanceTable + ` WHERE term >= ?`:        "NextTerm, only for a search that matches nothing: fts5vocab seeks the term (its plan says INDEX 2, term >=, without detail) and LIMIT 1 reads its first occurrence alone",
	`FROM ` + vocabInstanceTable + ` WHERE term = ?`:         "Spellings: fts5vocab seeks the one term (its plan says INDEX 1, term =, without detail)",
}

// readsWholeTable returns the key of wholeTable that q holds.
func readsWholeTable(q string) (string, bool) {
	for key := range wholeTable {
		if strings.Contains(oneLine(q), oneLine(key)) {
			return key, true
		}
	}
	return "", false
}

// fullScans returns the lines of plan that read a whole table: a SCAN of a table or index, or of
// an FTS5 table without a constraint (FTS5 searched by MATCH or rowid shows "INDEX 0:" and what
// it was given). json_each is the statement's own ID set, a VALUES clause its own rows, and a
// subquery run as a co-routine or materialized the rows of its own plan lines, checked as any.
func fullScans(plan []string) []string {
	var out []string
	subqueries := map[string]bool{}
	for _, detail := range plan {
		for _, kind := range []string{"CO-ROUTINE ", "MATERIALIZE "} {
			if name, ok := strings.CutPrefix(detail, kind); ok {
				subqueries[name] = true
			}
		}
		if !strings.HasPrefix(detail, "SCAN ") || strings.HasPrefix(detail, "SCAN json_each") || constrainedFTS.MatchString(detail) ||
			valuesClause.MatchString(detail) || subqueries[strings.TrimPrefix(detail, "SCAN ")] {
			continue
		}
		out = append(out, detail)
	}
	return out
}

var (
	constrainedFTS = regexp.MustCompile(`^SCAN \w+ VIRTUAL TABLE INDEX \d+:\S`)
	// A multi-row INSERT's own rows, and the one row of a SELECT without FROM.
	valuesClause = regexp.MustCompile(`^SCAN (\d+-ROW VALUES CLAUSE|CONSTANT ROW)$`)
)

// plannable reports whether q reads or writes rows (rather than setting up a connection or a
// transaction, or making tables).
func plannable(q string) bool {
	word, _, _ := strings.Cut(strings.TrimSpace(q), " ")
	switch strings.ToUpper(word) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "REPLACE":
		return true
	}
	return false
}

// statementsRun runs the conformance suite on stores that report every statement their
// connections run, and returns them. It also runs what the suite does not: Explain (of
// index.Searcher, for `serve`'s URL lookup) and the reading of an earlier build's store
// (readSchema).
func statementsRun(t *testing.T) map[string]bool {
	var mu sync.Mutex
	ran := map[string]bool{}
	observe := func(q string) {
		mu.Lock()
		ran[q] = true
		mu.Unlock()
	}
	t.Run("workload", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store {
			s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{MergeAll: true, wrapConn: observing(observe)})
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: observing(observe)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		us := addURLs(t, s, 2)
		us[0].State, us[0].Status, us[0].FetchedAt = store.StateFetched, 200, t0
		if _, err := s.Commit(t.Context(), store.Batch{Updates: us[:1], Documents: []store.Document{{URLID: us[0].ID, Index: true, Title: "Walrus"}},
			Links: []store.Link{{FromID: us[0].ID, To: us[1].URL, Anchor: "tusks"}}}); err != nil {
			t.Fatal(err)
		}
		if e, err := s.Explain(t.Context(), us[1].URL); err != nil || !e.Known {
			t.Errorf("explain %s: %+v, %v", us[1].URL, e, err)
		}
		// The head's ranking of a query that names sites reads each match's urls row first
		// (matcher.joinTop): the suite's sites are too small to take the head's path.
		if _, err := s.RefreshIndex(t.Context()); err != nil {
			t.Fatal(err)
		}
		if p, err := s.search(t.Context(), index.Query{Text: "walrus site:a.test", Now: t0}, walks{top: topWalk}); err != nil || len(p.Results) != 1 {
			t.Errorf("search of a site by the head: %+v, %v; want the page titled Walrus", p, err)
		}
		// The head's path for two words with more candidates than the page asks for: the boosts
		// walk the head's first topWalk matches.
		two, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: observing(observe)})
		if err != nil {
			t.Fatal(err)
		}
		defer two.Close()
		commonPages(t, two, 30, 25, "walrus", "last page")
		if p, err := two.search(t.Context(), index.Query{Text: "walrus ground", Now: t0}, walks{top: topWalk}); err != nil || len(p.Results) != 10 {
			t.Errorf("search of two words by the head: %d results, %v; want 10 of the pages headed walrus ground", len(p.Results), err)
		}
		path := earlierBuildStore(t, "16")
		db, err := openAttached("file:"+path+"?mode=ro&immutable=1", observing(observe))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := readSchema(t.Context(), db, path); err == nil {
			t.Error("an earlier build's store was read as this one's")
		}
	})
	return ran
}

// sqlInCode returns the SQL text written in the package's code, by position: every string
// constant expression, taken whole (sqlA + inSet is one), that starts with an SQL verb. It
// includes the pieces of statements put together at run time (`SELECT rowid, ` + t.bm25 + ...).
func sqlInCode(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// Only the constants are wanted: imports are left empty, and the errors that makes ignored.
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: emptyImports{}, Error: func(error) {}}
	conf.Check("sqlite", fset, files, info)
	out := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			tv := info.Types[e]
			if tv.Value == nil || tv.Value.Kind() != constant.String {
				return true
			}
			if q := constant.StringVal(tv.Value); sqlVerb.MatchString(q) {
				out[fset.Position(e.Pos()).String()] = q
			}
			return false
		})
	}
	if len(out) < 60 {
		t.Fatalf("found %d pieces of SQL in the package; the parse misses some", len(out))
	}
	return out
}

var sqlVerb = regexp.MustCompile(`^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE)\s`)

// emptyImports gives every import as an empty package.
type emptyImports struct{}

func (emptyImports) Import(path string) (*types.Package, error) {
	return types.NewPackage(path, filepath.Base(path)), nil
}

// uncovered returns, sorted, "position: SQL" for each piece of SQL in code that is part of no
// statement in ran (compared with spacing made uniform).
func uncovered(code map[string]string, ran map[string]bool) []string {
	var all []string
	for q := range ran {
		all = append(all, oneLine(q))
	}
	var out []string
	for pos, q := range code {
		piece := oneLine(q)
		if !slices.ContainsFunc(all, func(r string) bool { return strings.Contains(r, piece) }) {
			out = append(out, pos+": "+piece)
		}
	}
	slices.Sort(out)
	return out
}

// oneLine is q with its spacing made single spaces.
func oneLine(q string) string { return strings.Join(strings.Fields(q), " ") }

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
// EXPLAIN QUERY PLAN, with the crawl database attached a second time under the name the index
// writer gives it; the handle is closed when the test ends.
func emptyStoreForPlans(t *testing.T) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crawl.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := openAttached("file:"+path+"?mode=ro", nil, append(attachIndex(path, &searchReaders, nil), attachSQL(path, crawlSchemaName, true, false))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1) // the vocabulary's tables are the connection's own (vocab.go)
	if _, err := db.Exec(sqlCreateVocab); err != nil {
		t.Fatal(err)
	}
	return db
}

// queryPlan is the detail column of EXPLAIN QUERY PLAN for q, one entry per line. Parameters
// left without args are NULL.
func queryPlan(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	for len(args) < strings.Count(q, "?") {
		args = append(args, nil)
	}
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
