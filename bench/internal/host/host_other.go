//go:build !linux

package host

// SelfPeakRSS is not reported here: ru_maxrss has a different unit on every system.
func SelfPeakRSS() (int64, bool) { return 0, false }

// loadAvgFile is empty: the load average is not read on this system.
const loadAvgFile = ""
