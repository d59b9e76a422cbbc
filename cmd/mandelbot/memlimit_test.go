package main

import (
	"runtime/debug"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 9 ("peak RSS stays under 256 MiB by default"): a crawl sets the Go runtime's soft memory
// limit to 192 MiB, so the collector works harder before the heap nears the bound; an operator's
// GOMEMLIMIT wins.
func TestCrawlSetsTheMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	web := startWeb(t, testweb.RobotsOK())
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0"}, resolveArgs(web)...)
	args = append(args, web.URL("a", "/"))

	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(1 << 40)
	if code, _, errOut := runCLI(t, "", args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := debug.SetMemoryLimit(-1); got != 192<<20 {
		t.Errorf("memory limit %d after a crawl, want 192 MiB", got)
	}

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30) // what the runtime read from GOMEMLIMIT at start
	if code, _, errOut := runCLI(t, "", args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit %d with GOMEMLIMIT=1GiB, want it left alone", got)
	}
}
