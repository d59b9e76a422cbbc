//go:build !linux

package main

// selfPeakRSS is not reported here: ru_maxrss has a different unit on every system.
func selfPeakRSS() (int64, bool) { return 0, false }

// loadAvgFile is empty: the load average is not read on this system.
const loadAvgFile = ""
