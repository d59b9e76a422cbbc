package storetest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/store/storetest"
)

// envMutant names the mutant a child test process runs the suite against. It is read only here,
// in the test: the library reads no environment.
const envMutant = "STORETEST_MUTANT"

// openSQLite opens a store for Run, whose IndexPending merges every link change waiting, or,
// with crawlMerges, only as many as a crawl's merges wait for (the default options).
func openSQLite(t *testing.T, crawlMerges bool) store.Store {
	t.Helper()
	opts := sqlite.Options{MergeAll: !crawlMerges}
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The control of the mutants: a store behind patched with nothing patched passes the whole
// suite, so a mutant's failure comes from its bug.
func TestSuitePassesUnpatchedStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return patched{Store: openSQLite(t, false)} })
}

// The control of the Shared/ mutants: the reference shared store passes the whole suite, its
// Shared/ checks included (on SQLite alone they are skipped).
func TestSuitePassesSharedReference(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newSharedRef(openSQLite(t, false), noBug) })
}

// Every check of the suite can fail: for each mutant, a child process runs the check that names
// the mutant's bug, against the mutant, and that check must fail.
func TestSuiteCatchesMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary once per mutant")
	}
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			pattern := "^TestMutant$"
			for _, part := range strings.Split(m.check, "/") {
				pattern += "/^" + regexp.QuoteMeta(part) + "$"
			}
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run="+pattern, "-test.count=1")
			cmd.Env = append(os.Environ(), envMutant+"="+m.name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("check %s passed a store where %s:\n%s", m.check, m.name, out)
			}
			if !strings.Contains(string(out), "--- FAIL: TestMutant/"+m.check+" (") {
				t.Fatalf("check %s did not fail (exit: %v):\n%s", m.check, err, out)
			}
		})
	}
}

// Every check of the suite has a mutant it must catch.
func TestEveryCheckHasAMutant(t *testing.T) {
	for _, name := range storetest.CheckNames() {
		if !slices.ContainsFunc(mutants, func(m mutant) bool { return m.check == name }) {
			t.Errorf("check %s has no mutant", name)
		}
	}
	for _, m := range mutants {
		if !slices.Contains(storetest.CheckNames(), m.check) {
			t.Errorf("mutant %q names no check: %s", m.name, m.check)
		}
	}
}

// TestMutant runs the suite against the mutant named by envMutant, as a child of
// TestSuiteCatchesMutants; run directly, it is skipped.
func TestMutant(t *testing.T) {
	name, ok := os.LookupEnv(envMutant)
	if !ok {
		t.Skip("runs as a child process of TestSuiteCatchesMutants")
	}
	i := slices.IndexFunc(mutants, func(m mutant) bool { return m.name == name })
	if i < 0 {
		t.Fatalf("unknown mutant %q", name)
	}
	storetest.Run(t, func(t *testing.T) store.Store { return mutants[i].wrap(openSQLite(t, crawlMerges[name])) })
}
