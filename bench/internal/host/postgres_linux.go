//go:build linux

package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times (100 on Linux).
const clockTicks = 100

// PostgresCPU sums the CPU time of a PostgreSQL server on this machine: for every process named
// "postgres" (the postmaster and its backends, as /proc shows them), its user+system time and
// that of its reaped children, so that a backend which exits between two readings (a store's
// connections close when it does) still counts, in the postmaster's. False where /proc is not
// readable. Other users of the same server count too: the difference of two readings is the
// server's work between them only on a server nobody else uses meanwhile.
func PostgresCPU() (time.Duration, bool) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return 0, false
	}
	var ticks int64
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if t, ok := postgresTicks(string(b)); ok {
			ticks += t
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, true
}

// postgresTicks parses one /proc/PID/stat line: utime+stime+cutime+cstime when the command is
// postgres.
func postgresTicks(stat string) (int64, bool) {
	open, closing := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
	if open < 0 || closing < open || stat[open+1:closing] != "postgres" {
		return 0, false
	}
	f := strings.Fields(stat[closing+1:])
	if len(f) < 15 { // state is field 3; utime, stime, cutime and cstime are fields 14 to 17
		return 0, false
	}
	var sum int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		sum += n
	}
	return sum, true
}
