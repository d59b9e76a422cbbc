//go:build linux

package spawn

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// peakRSS returns the ru_maxrss of a finished child process in bytes, and true; false when
// the system does not report it.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return ru.Maxrss * 1024, true // Linux reports KiB
}

// writeBytes returns what a finished child process caused to be written to storage, in bytes
// (ru_oublock counts 512-byte blocks: /proc/PID/io's write_bytes), and true; false when the
// system does not report it.
func writeBytes(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return ru.Oublock * 512, true
}

// selfCPU returns the user plus system CPU time this process has used so far (every thread),
// and true; false when the system does not say.
func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// spawnAttr makes the launcher's child die with the launcher, so that a launcher killed at a
// timeout takes the child with it.
func spawnAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// memory is what /proc/PID/status says of a process's resident set, in bytes.
type memory struct{ rss, hwm int64 }

// childMemory reads the VmRSS and VmHWM of process pid; false when they cannot be read (the
// process has exited, say).
func childMemory(pid int) (memory, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memory{}, false
	}
	return parseStatus(string(b))
}

// parseStatus finds the VmRSS and VmHWM lines ("VmHWM:  1234 kB") of /proc/PID/status
// content; both must be present.
func parseStatus(status string) (memory, bool) {
	var m memory
	var haveRSS, haveHWM bool
	for line := range strings.Lines(status) {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return memory{}, false
		}
		kib, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kib < 0 {
			return memory{}, false
		}
		if name == "VmRSS" {
			m.rss, haveRSS = kib*1024, true
		} else {
			m.hwm, haveHWM = kib*1024, true
		}
	}
	return m, haveRSS && haveHWM
}
