//go:build !linux

package robotstxt

import (
	"testing"
	"time"
)

// onThreadCPU falls back to the wall time of fn where RUSAGE_THREAD is not available.
func onThreadCPU(_ *testing.T, fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}
