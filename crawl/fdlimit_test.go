//go:build unix

package crawl

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// envFDLimit makes the test binary, re-executed by TestConcurrencyWithinOpenFileLimit, lower its
// own open-file limit first: the limit is the process's, so it is changed in a child.
const envFDLimit = "MANDELBOT_TEST_FD_LIMIT"

// Issue 31: requests in flight are bounded by the file descriptors, not by a small constant. The
// default is DefaultConcurrency; under a low open-file limit the crawl takes a third of it,
// whatever Config.Concurrency asks.
func TestConcurrencyWithinOpenFileLimit(t *testing.T) {
	if v := os.Getenv(envFDLimit); v != "" {
		n, _ := strconv.ParseUint(v, 10, 64)
		l := syscall.Rlimit{Cur: n, Max: n}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			t.Fatal(err)
		}
		checkConcurrency(t, Config{}, min(int(n)/fdPerRequest, DefaultConcurrency))
		// A memory budget that holds 2,048 in flight (issue 29), so that the file limit binds.
		checkConcurrency(t, Config{Concurrency: 100_000, Memory: 1 << 30}, int(n)/fdPerRequest)
		checkConcurrency(t, Config{Concurrency: 20}, 20)
		return
	}
	if n, ok := openFileLimit(); ok && n/fdPerRequest >= DefaultConcurrency {
		checkConcurrency(t, Config{}, DefaultConcurrency)
	}
	for _, limit := range []string{"300", "3000"} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestConcurrencyWithinOpenFileLimit$")
		cmd.Env = append(os.Environ(), envFDLimit+"="+limit)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("with an open-file limit of %s: %v\n%s", limit, err, out)
		}
	}
}

func checkConcurrency(t *testing.T, c Config, want int) {
	t.Helper()
	c.Seeds = []string{"http://example.com/"}
	p, err := c.plan()
	if err != nil {
		t.Fatal(err)
	}
	if p.crawl.Concurrency != want {
		t.Errorf("Concurrency %d gives %d requests in flight, want %d", c.Concurrency, p.crawl.Concurrency, want)
	}
}
