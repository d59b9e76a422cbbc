package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// issue 9 ("peak RSS stays under 256 MiB by default") and issue 29 (--memory): a crawl sets the Go
// runtime's soft memory limit to the Go heap's share of --memory, 160 MiB of the default 256, so
// the collector works harder before the heap nears the bound; an operator's GOMEMLIMIT wins.
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
	if got := debug.SetMemoryLimit(-1); got != 160<<20 {
		t.Errorf("memory limit %d after a crawl, want 160 MiB", got)
	}
	debug.SetMemoryLimit(1 << 40)
	if code, _, errOut := runCLI(t, "", append([]string{args[0], "--memory", "128MiB"}, args[1:]...)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := debug.SetMemoryLimit(-1); got != 60<<20 { // 128 MiB less the page caches and the reserve with its fixed 40 MiB
		t.Errorf("memory limit %d after a crawl with --memory 128MiB, want 60 MiB", got)
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

// issue 29: --memory takes sizes as operators write them, and refuses nonsense and a budget under
// the minimum with a usage error naming the flag, before anything is fetched.
func TestCrawlMemoryFlagRefusesBadSizes(t *testing.T) {
	for in, want := range map[string]string{
		"lots":   `invalid argument "lots" for "--memory" flag`,
		"1.5GB":  `invalid argument "1.5GB" for "--memory" flag`,
		"64MiB":  "--memory 64MiB is under the minimum memory budget of 128MiB",
		"100MiB": "--memory 100MiB is under the minimum memory budget of 128MiB (a crawl process holds 40MiB, its binary and SQLite's heap",
	} {
		code, _, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "--memory", in, "http://example.com/")
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("--memory %s: exit %d, %q; want a usage error containing %q", in, code, errOut, want)
		}
	}
}
