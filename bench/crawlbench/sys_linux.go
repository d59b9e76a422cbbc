//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// peakRSS returns the peak resident set size of a finished child process in bytes, and
// true; false when the system does not report it.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return maxRSSBytes(ru.Maxrss), true
}

// maxRSSBytes converts getrusage's ru_maxrss, which Linux reports in KiB, to bytes.
func maxRSSBytes(kib int64) int64 { return kib * 1024 }

// selfCPU returns the user plus system CPU time this process has used so far (every thread:
// here mostly the fake web's handlers), and true; false when the system does not say.
func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// loadAvgFile is where Linux publishes the load average.
const loadAvgFile = "/proc/loadavg"

// spawnAttr makes the launcher's child die with the launcher, so that a launcher killed at
// the timeout takes the crawler with it.
func spawnAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// selfHighWater returns this process's own peak RSS in bytes (VmHWM: the high-water mark of
// its address space since exec, which, unlike ru_maxrss, owes nothing to its parent), and true;
// false when it cannot be read.
func selfHighWater() (int64, bool) {
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
