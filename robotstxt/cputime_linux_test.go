package robotstxt

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// onThreadCPU runs fn locked to its OS thread and returns the CPU time that thread spent in it
// (clock_gettime CLOCK_THREAD_CPUTIME_ID, precise where getrusage counts in scheduler ticks), so
// that a timing test measures work done rather than how long a
// shared machine kept the test off its cores: at a load average of 20 the wall time of a
// 512 KB parse swung far more than its CPU time.
func onThreadCPU(t *testing.T, fn func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadCPU(t)
	fn()
	return threadCPU(t) - before
}

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID of <time.h>, which package syscall does not name.
const clockThreadCPUTimeID = 3

func threadCPU(t *testing.T) time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		t.Fatalf("clock_gettime: %v", errno)
	}
	return time.Duration(ts.Nano())
}
