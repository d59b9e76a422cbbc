//go:build !linux

package spawn

import (
	"os"
	"syscall"
	"time"
)

// peakRSS is not reported here: ru_maxrss has a different unit on every system.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }

// writeBytes is not reported here.
func writeBytes(*os.ProcessState) (int64, bool) { return 0, false }

// selfCPU is not reported here.
func selfCPU() (time.Duration, bool) { return 0, false }

// spawnAttr sets nothing here.
func spawnAttr() *syscall.SysProcAttr { return nil }

type memory struct{ rss, hwm int64 }

// childMemory is not read here.
func childMemory(int) (memory, bool) { return memory{}, false }
