//go:build !linux

package main

import (
	"os"
	"syscall"
	"time"
)

// peakRSS is not reported here: ru_maxrss has a different unit on every system.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }

// selfCPU is not reported here.
func selfCPU() (time.Duration, bool) { return 0, false }

// spawnAttr sets nothing here.
func spawnAttr() *syscall.SysProcAttr { return nil }
