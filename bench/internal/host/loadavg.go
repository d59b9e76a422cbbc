// Package host reads what the benchmarks report about the machine they ran on: the load average
// and a process's own peak memory. Nothing here is cached; each call reads the system afresh.
package host

import (
	"os"
	"strings"
)

// LoadAverage returns the 1, 5 and 15 minute load averages as the system prints them, or
// "unavailable".
func LoadAverage() string {
	if loadAvgFile == "" {
		return "unavailable"
	}
	b, err := os.ReadFile(loadAvgFile)
	if err != nil {
		return "unavailable"
	}
	return parseLoadAvg(string(b))
}

// parseLoadAvg returns the first three fields of /proc/loadavg content, or "unavailable".
func parseLoadAvg(s string) string {
	f := strings.Fields(s)
	if len(f) < 3 {
		return "unavailable"
	}
	return f[0] + " " + f[1] + " " + f[2]
}
