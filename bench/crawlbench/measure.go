package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/fractle/mandelbot/bench/internal/host"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// childRun is one measured child process.
type childRun struct {
	Wall    time.Duration // from start to exit, seen by the parent (the launcher's start included)
	CPU     time.Duration // the child's user plus system CPU time
	PeakRSS int64         // the child's peak RSS in bytes; -1 when the system does not report it
	// LauncherRSS is the launcher's own peak RSS, the floor under PeakRSS; -1 when unknown.
	LauncherRSS int64
	// ServerCPU is the CPU time the bench process itself (the fake web) used meanwhile;
	// -1 when the system does not report it.
	ServerCPU time.Duration
	Stdout    string
	Stderr    string
}

// spawnFlag puts this program in launcher mode: "-spawn-report FILE -- NAME ARG...".
const spawnFlag = "-spawn-report"

// measure runs name with args to completion and measures it. A child that cannot start, is
// killed by ctx, or exits with a non-zero status is an error that carries its stderr.
//
// The child runs under a launcher, self (this program) in spawn mode, which reports the
// child's rusage. On Linux a child's ru_maxrss starts from the RSS of the process that
// forked it (the kernel carries the old address space's high-water mark across exec), so a
// child of this process, which holds the fake web and its request log, would report this
// process's RSS whenever that is larger than its own. The launcher is small and freshly
// started: what it reports is the child's own peak, or the launcher's, whichever is larger.
func measure(ctx context.Context, self, name string, args ...string) (childRun, error) {
	r := childRun{PeakRSS: -1, LauncherRSS: -1, ServerCPU: -1}
	report, err := os.CreateTemp("", "crawlbench-spawn-*.json")
	if err != nil {
		return r, fmt.Errorf("run %s: %w", name, err)
	}
	report.Close()
	defer os.Remove(report.Name())

	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, self, append([]string{spawnFlag, report.Name(), "--", name}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cpu0, cpuOK := selfCPU()
	start := time.Now()
	runErr := cmd.Run()
	r.Wall = time.Since(start)
	if cpu1, ok := selfCPU(); ok && cpuOK {
		r.ServerCPU = cpu1 - cpu0
	}
	r.Stdout, r.Stderr = out.String(), errOut.String()
	if runErr != nil {
		return r, fmt.Errorf("run %s: %w\n%s", name, runErr, lastLines(r.Stderr, 20))
	}
	b, err := os.ReadFile(report.Name())
	if err != nil {
		return r, fmt.Errorf("run %s: read the launcher's report: %w", name, err)
	}
	var rep spawnReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return r, fmt.Errorf("run %s: read the launcher's report %q: %w", name, b, err)
	}
	r.CPU, r.PeakRSS, r.LauncherRSS = time.Duration(rep.CPUNanos), rep.PeakRSS, rep.LauncherRSS
	return r, nil
}

// spawnReport is what the launcher writes about the process it ran.
type spawnReport struct {
	CPUNanos    int64 `json:"cpu_ns"`       // user plus system
	PeakRSS     int64 `json:"peak_rss"`     // bytes; -1 unknown
	LauncherRSS int64 `json:"launcher_rss"` // bytes; -1 unknown
}

// runSpawn is the launcher's main: it runs argv with this process's standard streams, writes
// a spawnReport to reportPath and returns the child's exit status (1 when it was killed).
func runSpawn(reportPath string, argv []string, stderr io.Writer) int {
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "crawlbench: "+spawnFlag+": no command")
		return 2
	}
	runtime.LockOSThread() // the child's parent-death signal follows this thread (Linux)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	cmd.SysProcAttr = spawnAttr()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintf(stderr, "crawlbench: spawn %s: %v\n", argv[0], err)
		return 1
	}
	rep := spawnReport{CPUNanos: int64(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()), PeakRSS: -1, LauncherRSS: -1}
	if rss, ok := peakRSS(cmd.ProcessState); ok {
		rep.PeakRSS = rss
	}
	if hwm, ok := host.SelfPeakRSS(); ok {
		rep.LauncherRSS = hwm
	}
	b, _ := json.Marshal(rep) // a struct of numbers always marshals
	if err := os.WriteFile(reportPath, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "crawlbench: spawn: %v\n", err)
		return 1
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		return max(code, 1) // -1: killed by a signal
	}
	return 0
}

// lastLines returns the last n lines of s, for error messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
