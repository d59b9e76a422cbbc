//go:build unix

package host

import (
	"syscall"
	"time"
)

// SelfCPU returns the user plus system CPU time this process has used so far, every thread
// included (the garbage collector's too), and true; false when the system does not say. On a
// shared machine it grows much less with other processes' load than wall time does.
func SelfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
