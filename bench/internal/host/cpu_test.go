package host

import (
	"runtime"
	"testing"
	"time"
)

// SelfCPU grows with work this process does (indexbench's CPU ms per search, issue 11).
func TestSelfCPUGrows(t *testing.T) {
	a, ok := SelfCPU()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("SelfCPU unknown on linux")
		}
		t.Skip("no CPU time on this system")
	}
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x++
	}
	b, _ := SelfCPU()
	if b-a < 10*time.Millisecond {
		t.Errorf("50 ms of busy work grew SelfCPU by %v (%d loops)", b-a, x)
	}
}
