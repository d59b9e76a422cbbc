//go:build linux

package host

import (
	"runtime"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	status := "Name:\tcrawlbench\nVmPeak:\t  812340 kB\nVmHWM:\t   10240 kB\nVmRSS:\t    9000 kB\n"
	if got, ok := parseVmHWM(status); !ok || got != 10<<20 {
		t.Errorf("parseVmHWM = %d, %v; want 10 MiB", got, ok)
	}
	for _, bad := range []string{"VmRSS:\t9000 kB\n", "VmHWM:\t10 MB\n", "VmHWM:\t-3 kB\n", ""} {
		if got, ok := parseVmHWM(bad); ok {
			t.Errorf("parseVmHWM(%q) = %d, true", bad, got)
		}
	}
}

// The peak RSS of this process is at least what it holds now.
func TestSelfPeakRSS(t *testing.T) {
	b := make([]byte, 32<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	got, ok := SelfPeakRSS()
	runtime.KeepAlive(b)
	if !ok || got < 32<<20 {
		t.Errorf("SelfPeakRSS = %d, %v; want at least 32 MiB", got, ok)
	}
}
