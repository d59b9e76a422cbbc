//go:build linux

package main

import "syscall"

// selfPeakRSS returns this process's peak resident set size in bytes, and true; false when
// the system does not report it. Linux reports ru_maxrss in KiB.
func selfPeakRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Maxrss * 1024, true
}

// loadAvgFile is where Linux publishes the load average.
const loadAvgFile = "/proc/loadavg"
