//go:build linux

package main

import (
	"os"
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

// spawnAttr makes the launcher's child die with the launcher, so that a launcher killed at
// the timeout takes the crawler with it.
func spawnAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
