//go:build linux

package spawn

import "testing"

func TestParseStatus(t *testing.T) {
	status := "Name:\tx\nVmPeak:\t  812340 kB\nVmHWM:\t   10240 kB\nVmRSS:\t    9000 kB\n"
	if m, ok := parseStatus(status); !ok || m.hwm != 10<<20 || m.rss != 9000<<10 {
		t.Errorf("parseStatus = %+v, %v", m, ok)
	}
	for _, bad := range []string{"VmRSS:\t9000 kB\n", "VmHWM:\t10 MB\nVmRSS:\t1 kB\n", "VmHWM:\t-3 kB\nVmRSS:\t1 kB\n", ""} {
		if m, ok := parseStatus(bad); ok {
			t.Errorf("parseStatus(%q) = %+v, true", bad, m)
		}
	}
}
