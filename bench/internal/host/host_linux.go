//go:build linux

package host

import (
	"os"
	"strconv"
	"strings"
)

// SelfPeakRSS returns this process's peak resident set size in bytes, and true; false when
// it cannot be read. It is VmHWM, the high-water mark of the address space since exec: unlike
// getrusage's ru_maxrss, which Linux starts from the RSS of the process that started this one
// (`go run`, say), it owes nothing to the parent.
func SelfPeakRSS() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseVmHWM(string(b))
}

// parseVmHWM finds the "VmHWM:  1234 kB" line of /proc/PID/status content and returns it in
// bytes.
func parseVmHWM(status string) (int64, bool) {
	for line := range strings.Lines(status) {
		rest, ok := strings.CutPrefix(line, "VmHWM:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kib, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kib < 0 {
			return 0, false
		}
		return kib * 1024, true
	}
	return 0, false
}

// loadAvgFile is where Linux publishes the load average.
const loadAvgFile = "/proc/loadavg"
