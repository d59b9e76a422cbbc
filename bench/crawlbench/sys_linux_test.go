//go:build linux

package main

import "testing"

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
