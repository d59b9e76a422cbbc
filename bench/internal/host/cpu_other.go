//go:build !unix

package host

import "time"

// SelfCPU is not known on this system: false.
func SelfCPU() (time.Duration, bool) { return 0, false }
