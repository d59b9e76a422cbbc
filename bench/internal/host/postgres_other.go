//go:build !linux

package host

import "time"

// PostgresCPU is not known on this system: false.
func PostgresCPU() (time.Duration, bool) { return 0, false }
