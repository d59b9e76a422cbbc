package main

import (
	"context"
	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	if got := median([]int64{5, 1, 3}); got != 3 {
		t.Errorf("median odd = %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 { // (2+3)/2 in integer units
		t.Errorf("median even = %d", got)
	}
	in := []float64{2, 1}
	if got := median(in); got != 1.5 || in[0] != 2 {
		t.Errorf("median = %v, input now %v (must not be sorted in place)", got, in)
	}
	if got := median[int64](nil); got != 0 {
		t.Errorf("median of nothing = %d", got)
	}
}

func TestFormats(t *testing.T) {
	if got := rate(500, 2*time.Second); got != "250" {
		t.Errorf("rate = %q", got)
	}
}

// helperEnv makes this test binary, started by TestPeakRSS, allocate and touch helperBytes
// and exit. Started with spawnFlag, the test binary is the launcher, as crawlbench is.
const (
	helperEnv   = "CRAWLBENCH_TEST_ALLOCATE"
	helperBytes = 64 << 20
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == spawnFlag {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if os.Getenv(helperEnv) == "1" {
		b := make([]byte, helperBytes)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1 // touch every page so that it is resident
		}
		runtime.KeepAlive(b)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// measure reports the child's own peak RSS: a child that touched 64 MiB peaked above that,
// and not at the 256 MiB this process holds (a direct child's ru_maxrss would start there on
// Linux).
func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is reported on Linux only")
	}
	ballast := make([]byte, 256<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	t.Setenv(helperEnv, "1")
	r, err := measure(context.Background(), os.Args[0], os.Args[0])
	runtime.KeepAlive(ballast)
	if err != nil {
		t.Fatal(err)
	}
	if r.PeakRSS < helperBytes || r.PeakRSS > 160<<20 {
		t.Errorf("peak RSS %s MiB, want between 64 and 160", mdtable.MiB(r.PeakRSS))
	}
	if r.LauncherRSS <= 0 || r.LauncherRSS >= r.PeakRSS {
		t.Errorf("launcher RSS %s MiB, want positive and under the child's %s", mdtable.MiB(r.LauncherRSS), mdtable.MiB(r.PeakRSS))
	}
	if r.Wall <= 0 || r.CPU <= 0 {
		t.Errorf("wall %v, CPU %v: want both positive", r.Wall, r.CPU)
	}
}

func TestMeasureFailingChild(t *testing.T) {
	r, err := measure(context.Background(), os.Args[0], os.Args[0], "-test.run=^$", "-test.bogusflag")
	if err == nil {
		t.Error("measure of a child that exits with status 2: no error")
	}
	if !strings.Contains(r.Stderr, "bogusflag") {
		t.Errorf("the child's stderr did not come through: %q", r.Stderr)
	}
}
