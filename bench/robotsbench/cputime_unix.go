//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the user plus system CPU time the process has used so
// far, every thread included (the garbage collector's too), and true; or
// false when the system does not say.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
