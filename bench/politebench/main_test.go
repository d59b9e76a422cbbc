package main

import (
	"bytes"
	"strings"
	"testing"
)

// -programs takes mandelbot, colly and pgN (N PostgreSQL workers, issue 31's cluster at the
// politeness limit); anything else is bad usage (exit 2) that names what it wants.
func TestProgramsFlag(t *testing.T) {
	for p, want := range map[string]int{"mandelbot": 0, "colly": 0, "pg1": 1, "pg3": 3, "pg16": 16} {
		if n, err := workersOf(p); err != nil || n != want {
			t.Errorf("workersOf(%q) = %d, %v; want %d", p, n, err, want)
		}
	}
	for _, bad := range []string{"pg0", "pg17", "pg", "pgx", "wget"} {
		var stderr bytes.Buffer
		if code := run([]string{"-programs", "mandelbot," + bad}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "pg1 ... pg16") {
			t.Errorf("-programs mandelbot,%s: exit %d, %q; want 2 and the programs it takes", bad, code, stderr.String())
		}
	}
}
