package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// childRun is one measured child process.
type childRun struct {
	Wall    time.Duration // from start to exit, seen by the parent
	CPU     time.Duration // the child's user plus system CPU time
	PeakRSS int64         // bytes; -1 when the system does not report it
	// ServerCPU is the CPU time the bench process itself (the fake web) used meanwhile;
	// -1 when the system does not report it.
	ServerCPU time.Duration
	Stdout    string
	Stderr    string
}

// measure runs name with args to completion and measures it. A child that cannot start, is
// killed by ctx, or exits with a non-zero status is an error that carries its stderr.
func measure(ctx context.Context, name string, args ...string) (childRun, error) {
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cpu0, cpuOK := selfCPU()
	start := time.Now()
	err := cmd.Run()
	r := childRun{Wall: time.Since(start), PeakRSS: -1, ServerCPU: -1, Stdout: out.String(), Stderr: errOut.String()}
	if cpu1, ok := selfCPU(); ok && cpuOK {
		r.ServerCPU = cpu1 - cpu0
	}
	if ps := cmd.ProcessState; ps != nil {
		r.CPU = ps.UserTime() + ps.SystemTime()
		if rss, ok := peakRSS(ps); ok {
			r.PeakRSS = rss
		}
	}
	if err != nil {
		return r, fmt.Errorf("run %s: %w\n%s", name, err, lastLines(r.Stderr, 20))
	}
	return r, nil
}

// lastLines returns the last n lines of s, for error messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// loadAverage returns the 1, 5 and 15 minute load averages as the system prints them, or
// "unavailable".
func loadAverage() string {
	if loadAvgFile == "" {
		return "unavailable"
	}
	b, err := os.ReadFile(loadAvgFile)
	if err != nil {
		return "unavailable"
	}
	return parseLoadAvg(string(b))
}

// parseLoadAvg returns the first three fields of /proc/loadavg content, or "unavailable".
func parseLoadAvg(s string) string {
	f := strings.Fields(s)
	if len(f) < 3 {
		return "unavailable"
	}
	return f[0] + " " + f[1] + " " + f[2]
}
