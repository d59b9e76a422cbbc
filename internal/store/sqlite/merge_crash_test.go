package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

const (
	// envMergeCrashDB names the store TestMergeCrashHelper refreshes, and envMergeKillAt the
	// statement of its RefreshIndex at which it kills itself; set only for the child processes
	// TestKillDuringMergeAndRefresh starts.
	envMergeCrashDB = "MANDELBOT_SQLITE_MERGE_CRASH_DB"
	envMergeKillAt  = "MANDELBOT_SQLITE_MERGE_KILL_AT"
	// envMergeOp is the step the child runs: "index" (RefreshIndex) or "pending" (IndexPending,
	// whose merge rewrites the targets by the power-of-two rule).
	envMergeOp = "MANDELBOT_SQLITE_MERGE_OP"
	// mergeCrashRows is the merge size of these tests, and mergeCrashPass their merges' passes:
	// the log below is many passes long, so a kill can land while a merge's spill files are
	// beside the store (logspill.go).
	mergeCrashRows = 300
	mergeCrashPass = mergeCrashRows / 8
	// mergeCrashRounds is how many children are killed, each on a fresh copy of the store, at
	// statements spread over the whole RefreshIndex (one in each of as many equal stretches).
	mergeCrashRounds = 16
)

// buildLinkedStore makes, at path, a store whose documents are folded and whose links all wait
// in link_log, unmerged: pages of a.test link to each other and to never fetched URLs with
// anchors from a small vocabulary, and some pages are fetched again with other links (the log
// holds removals as well as additions).
func buildLinkedStore(t *testing.T, path string) {
	t.Helper()
	ctx := t.Context()
	s, err := Open(ctx, path, Options{MergeRows: 1 << 30}) // IndexPending merges nothing
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const pages, targets, links = 200, 3000, 15
	us := addURLs(t, s, targets)
	words := []string{"walrus", "narwhal", "seal", "dugong", "manatee", "orca", "beluga", ""}
	rng := rand.New(rand.NewPCG(26, 2))
	fetch := func(i int) {
		u := us[i]
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b := store.Batch{Updates: []store.URL{u},
			Documents: []store.Document{{URLID: u.ID, Index: true, Title: u.URL, Text: fmt.Sprint("page ", i)}}}
		for range links {
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[rng.IntN(targets)].URL,
				Anchor: words[rng.IntN(len(words))], Fragment: rng.IntN(8) == 0})
		}
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for i := range pages {
		fetch(i)
	}
	for i := 0; i < pages; i += 7 {
		fetch(i)
	}
	if _, err := s.IndexPending(ctx, 1<<30); err != nil {
		t.Fatal(err)
	}
	if n, _, err := linkLogSize(ctx, s.read); err != nil || n < 10*mergeCrashRows {
		t.Fatalf("link_log holds %d rows (%v), want many passes' worth", n, err)
	}
}

// copyStore copies the files of the closed store at from (each database, and any -wal beside
// it) to a new directory, and returns the copy's path.
func copyStore(t testing.TB, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "crawl.db")
	files, err := filepath.Glob(strings.TrimSuffix(from, ".db") + "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".lock") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(to), filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// indexDump is everything the link graph and the anchor text are, as text: each link, each
// entry with its kind, inlinks and anchor row (its terms, read from FTS5's index: the table keeps
// no text; "-" for no row), and the sizes of the tables that must be empty once the index has
// caught up.
// Without nums, the entries' numbers are left out: they depend on the order entries were made in.
func indexDump(t *testing.T, s *Store, nums bool) string {
	t.Helper()
	num := "d.num"
	if !nums {
		num = "0"
	}
	var b strings.Builder
	withAnchorTerms(t, s, func(conn *sql.Conn) {
		for _, q := range []string{
			`SELECT to_id, from_id, anchor, fragment FROM links ORDER BY to_id, from_id, anchor`,
			`SELECT d.url_id, d.link_only, d.inlinks, ` + num + `, CASE WHEN ds.id IS NULL THEN '-' ELSE COALESCE(a.terms, '') END, f.urlwords, f.title
				FROM docs d LEFT JOIN fts_anchors_docsize ds ON ds.id = d.num LEFT JOIN ` + sqlAnchorTerms + ` a ON a.doc = d.num
				LEFT JOIN fts f ON f.rowid = d.num ORDER BY d.url_id`,
			`SELECT (SELECT COUNT(*) FROM link_log), (SELECT COUNT(*) FROM dirty),
				(SELECT COUNT(*) FROM fts), (SELECT COUNT(*) FROM fts_anchors), (SELECT COUNT(*) FROM staged)`,
		} {
			rows, err := conn.QueryContext(t.Context(), q)
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintln(&b, vals...)
			}
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
	return b.String()
}

// sqlAnchorTerms is a table of each anchor row's terms in their order (doc, the entry's number,
// its key; terms), made by withAnchorTerms from FTS5's index through an fts5vocab table:
// fts_anchors is contentless, and its index is what a search reads. (Joined as a subquery, the
// grouping ran again for every docs row: minutes under the race detector.)
const sqlAnchorTerms = `temp.anchor_rows`

// withAnchorTerms runs fn on a read connection of s that has the table sqlAnchorTerms names
// (see vocabulary.withVocab).
func withAnchorTerms(t *testing.T, s *Store, fn func(*sql.Conn)) {
	t.Helper()
	conn, err := s.read.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), `PRAGMA query_only = 0;
		CREATE VIRTUAL TABLE IF NOT EXISTS temp.anchor_terms USING fts5vocab(`+indexSchemaName+`, fts_anchors, instance);
		CREATE TABLE temp.anchor_rows (doc INTEGER PRIMARY KEY, terms TEXT NOT NULL);
		INSERT INTO temp.anchor_rows SELECT doc, group_concat(term, ' ' ORDER BY offset) FROM temp.anchor_terms GROUP BY doc;
		PRAGMA query_only = 1`); err != nil {
		t.Fatal(err)
	}
	fn(conn)
	if _, err := conn.ExecContext(t.Context(), `PRAGMA query_only = 0; DROP TABLE temp.anchor_terms; DROP TABLE temp.anchor_rows; PRAGMA query_only = 1`); err != nil {
		t.Fatal(err)
	}
}

// runRefresh runs the step op names (envMergeOp). With MergeRows mergeCrashRows, IndexPending
// merges the whole of buildLinkedStore's log.
func runRefresh(ctx context.Context, s *Store, op string) error {
	var err error
	if op == "pending" {
		_, err = s.IndexPending(ctx, math.MaxInt)
	} else {
		_, err = s.RefreshIndex(ctx)
	}
	return err
}

// refreshCounting opens the store at path, runs the refresh op names counting the statements
// it runs, then RefreshIndex, and returns the count and the index it left.
func refreshCounting(t *testing.T, path, op string) (int64, string) {
	t.Helper()
	var n atomic.Int64
	var on atomic.Bool
	s, err := Open(t.Context(), path, Options{MergeRows: mergeCrashRows, passRows: mergeCrashPass, wrapConn: observing(func(string) {
		if on.Load() {
			n.Add(1)
		}
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	on.Store(true)
	if err := runRefresh(t.Context(), s, op); err != nil {
		t.Fatal(err)
	}
	on.Store(false)
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	return n.Load(), indexDump(t, s, op == "index")
}

// TestMergeCrashHelper is the child of TestKillDuringMergeAndRefresh: it runs the refresh
// envMergeOp names on the store and kills itself with SIGKILL at the statement numbered by
// envMergeKillAt.
func TestMergeCrashHelper(t *testing.T) {
	path := os.Getenv(envMergeCrashDB)
	if path == "" {
		t.Skip("runs as a child process of TestKillDuringMergeAndRefresh")
	}
	at, err := strconv.ParseInt(os.Getenv(envMergeKillAt), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	var on atomic.Bool
	s, err := Open(context.Background(), path, Options{MergeRows: mergeCrashRows, passRows: mergeCrashPass, wrapConn: observing(func(q string) {
		if on.Load() && n.Add(1) == at {
			fmt.Printf("killed at statement %d: %.80s\n", at, oneLine(q))
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	})})
	if err != nil {
		t.Fatal(err)
	}
	on.Store(true)
	if err := runRefresh(context.Background(), s, os.Getenv(envMergeOp)); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("the refresh returned before statement %d", at)
}

// Issue 26 part 6: the link graph's merge (link_log into links, linklog.go) and the anchor
// text's rebuild (the generation each merge runs, and the rewrite of the dirty entries:
// anchors.go) replay idempotently after a kill
// -9 at any moment. A child runs RefreshIndex on a store whose links all wait in link_log and
// kills itself with SIGKILL at a random statement of each stretch of it in turn: inside a merge,
// between two, or inside the refresh. The store then reopens, a RefreshIndex completes what was lost, and the
// index is the one a refresh without the crash left: the same links, entries, inlinks, anchor
// rows, and nothing left in link_log or dirty.
func TestKillDuringMergeAndRefresh(t *testing.T) { testKillDuringRefresh(t, "index") }

// Issue 26 parts 2 and 6: the same with a kill inside IndexPending's merge, which rewrites only
// the targets due by the power-of-two rule and leaves the others in dirty: after the kill, a
// RefreshIndex leaves the index an IndexPending and a RefreshIndex without the crash leave
// (the entries' numbers aside: they follow the order entries were made in).
func TestKillDuringGenerations(t *testing.T) { testKillDuringRefresh(t, "pending") }

func testKillDuringRefresh(t *testing.T, op string) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	if raceDetector {
		// 32 children of a race-built binary took the package past go test's 10 minutes at a load
		// of 15; the kills test durability, not data races, and run in every plain go test.
		t.Skip("kills child processes, each ten times slower under the race detector")
	}
	base := filepath.Join(t.TempDir(), "crawl.db")
	buildLinkedStore(t, base)
	total, want := refreshCounting(t, copyStore(t, base), op)
	if total < 20 {
		t.Fatalf("the refresh ran %d statements, want many", total)
	}
	rng := rand.New(rand.NewPCG(26, 6))
	for round := range mergeCrashRounds {
		path := copyStore(t, base)
		from, to := 1+int64(round)*(total-1)/mergeCrashRounds, 1+int64(round+1)*(total-1)/mergeCrashRounds
		at := from + rng.Int64N(max(to-from, 1))
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestMergeCrashHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), envMergeCrashDB+"="+path, envMergeKillAt+"="+strconv.FormatInt(at, 10), envMergeOp+"="+op)
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child not killed by SIGKILL: %v\n%s", round, err, out)
		}
		t.Logf("round %d of %d statements: %s", round, total, strings.TrimSpace(string(out)))
		s, err := Open(t.Context(), path, Options{MergeRows: mergeCrashRows, passRows: mergeCrashPass})
		if err != nil {
			t.Fatalf("round %d: reopen after kill -9: %v", round, err)
		}
		if _, err := s.RefreshIndex(t.Context()); err != nil {
			t.Fatalf("round %d: RefreshIndex after kill -9: %v", round, err)
		}
		if left, err := filepath.Glob(path + spillPattern); err != nil || len(left) > 0 {
			t.Errorf("round %d: spill files left after the refresh that followed the kill: %v (%v)", round, left, err)
		}
		if got := indexDump(t, s, op == "index"); got != want {
			t.Errorf("round %d: after kill -9 at statement %d and a refresh, the index differs from one without the crash:\n%s",
				round, at, firstDiff(got, want))
		}
		s.Close()
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: got %q, want %q (%d lines against %d)", i+1, gl, wl, len(g), len(w))
		}
	}
	return "no difference"
}
