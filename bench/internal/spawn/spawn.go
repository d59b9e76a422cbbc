// Package spawn runs a benchmark's child process and measures it: wall time, user plus system
// CPU time, peak RSS, and the CPU the benchmark process itself used meanwhile (when it serves
// the child, as a fake web does).
//
// The child runs under a launcher: the benchmark program itself, re-executed with [Flag],
// which must call [Main] first thing. On Linux a child's ru_maxrss starts from the RSS of the
// process that forked it (the kernel carries the old address space's high-water mark across
// exec), so a direct child of a benchmark that holds a fake web and its request log would
// report the benchmark's RSS whenever that is larger than its own; measured, /bin/true started
// by a process holding 256 MiB reports 259 MiB. The launcher is small and freshly started.
// It also samples the child's own high-water mark (VmHWM) while it runs, which catches a child
// smaller than the launcher, and stops a child whose RSS passes a cap.
package spawn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
)

// Flag puts a benchmark program in launcher mode:
// "-spawn-report FILE MAXRSS -- NAME ARG...". MAXRSS is a byte count, 0 for no cap.
const Flag = "-spawn-report"

// SamplePeriod is how often the launcher reads the child's memory figures.
const SamplePeriod = 20 * time.Millisecond

// Options say how to run a child. The zero value runs it uncapped, but Self is required.
type Options struct {
	// Self is the launcher: the benchmark program's own path (os.Executable).
	Self string
	// MaxRSS stops the child (SIGKILL) once its resident set passes this many bytes; 0 means
	// no cap. A stopped child is an error, and Run.Capped says why.
	MaxRSS int64
	// ExitOK lists exit statuses other than 0 that count as success (wget's 8, "the server
	// answered an error", for example).
	ExitOK []int
}

// Run is one measured child process.
type Run struct {
	Wall time.Duration // from start to exit, seen by the caller (the launcher's start included)
	CPU  time.Duration // the child's user plus system CPU time
	// RusageRSS is the child's ru_maxrss in bytes: the larger of its own peak and the
	// launcher's RSS when it forked; -1 when the system does not report it.
	RusageRSS int64
	// SampledHWM is the largest VmHWM read while the child ran: its own peak, but for what
	// happened after the last sample; -1 when none was read.
	SampledHWM int64
	// LauncherRSS is the launcher's own peak RSS; -1 when unknown.
	LauncherRSS int64
	// ServerCPU is the CPU time the calling process used meanwhile; -1 when unknown.
	ServerCPU time.Duration
	// WriteBytes is what the child caused to be written to storage (ru_oublock: Linux's
	// /proc/PID/io write_bytes, in 512-byte blocks); -1 when the system does not report it.
	WriteBytes int64
	// Capped is set when the launcher stopped the child for passing Options.MaxRSS.
	Capped bool
	// ExitCode is the child's exit status; -1 when it did not exit normally.
	ExitCode int
	Stdout   string
	Stderr   string
}

// PeakRSS is the child's own peak RSS in bytes, -1 when unknown: ru_maxrss when it is above
// the launcher's RSS (then it can only be the child's own), otherwise the sampled VmHWM, and
// ru_maxrss (an upper bound) when nothing was sampled.
func (r Run) PeakRSS() int64 {
	switch {
	case r.RusageRSS > r.LauncherRSS && r.LauncherRSS >= 0:
		return r.RusageRSS
	case r.SampledHWM > 0:
		return r.SampledHWM
	}
	return r.RusageRSS
}

// Measure runs name with args to completion under the launcher and measures it. A child that
// cannot start, is killed by ctx or the cap, or exits with a non-zero status is an error that
// carries its stderr; the Run is filled in as far as it is known.
func Measure(ctx context.Context, opts Options, name string, args ...string) (Run, error) {
	r := Run{RusageRSS: -1, SampledHWM: -1, LauncherRSS: -1, ServerCPU: -1, ExitCode: -1, WriteBytes: -1}
	report, err := os.CreateTemp("", "spawn-*.json")
	if err != nil {
		return r, fmt.Errorf("run %s: %w", name, err)
	}
	report.Close()
	defer os.Remove(report.Name())

	var out, errOut bytes.Buffer
	argv := append([]string{Flag, report.Name(), strconv.FormatInt(opts.MaxRSS, 10), "--", name}, args...)
	cmd := exec.CommandContext(ctx, opts.Self, argv...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cpu0, cpuOK := selfCPU()
	start := time.Now()
	runErr := cmd.Run()
	r.Wall = time.Since(start)
	if cpu1, ok := selfCPU(); ok && cpuOK {
		r.ServerCPU = cpu1 - cpu0
	}
	r.Stdout, r.Stderr = out.String(), errOut.String()
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode() // the launcher passes the child's status on
	}
	if runErr != nil && r.ExitCode > 0 && slices.Contains(opts.ExitOK, r.ExitCode) {
		runErr = nil
	}
	var rep launchReport
	b, readErr := os.ReadFile(report.Name())
	if readErr == nil && len(b) > 0 {
		if err := json.Unmarshal(b, &rep); err != nil {
			return r, fmt.Errorf("run %s: read the launcher's report %q: %w", name, b, err)
		}
		r.CPU, r.RusageRSS, r.SampledHWM, r.LauncherRSS, r.Capped = time.Duration(rep.CPUNanos), rep.RusageRSS, rep.SampledHWM, rep.LauncherRSS, rep.Capped
		r.WriteBytes = rep.WriteBytes
	}
	switch {
	case r.Capped:
		return r, fmt.Errorf("run %s: stopped: its RSS passed the cap of %d MiB", name, opts.MaxRSS>>20)
	case runErr != nil:
		return r, fmt.Errorf("run %s: %w\n%s", name, runErr, LastLines(r.Stderr, 20))
	case readErr != nil:
		return r, fmt.Errorf("run %s: read the launcher's report: %w", name, readErr)
	}
	return r, nil
}

// launchReport is what the launcher writes about the process it ran.
type launchReport struct {
	CPUNanos    int64 `json:"cpu_ns"`       // user plus system
	RusageRSS   int64 `json:"rusage_rss"`   // bytes; -1 unknown
	SampledHWM  int64 `json:"sampled_hwm"`  // bytes; -1 none
	LauncherRSS int64 `json:"launcher_rss"` // bytes; -1 unknown
	WriteBytes  int64 `json:"write_bytes"`  // bytes; -1 unknown
	Capped      bool  `json:"capped"`
}

// Main is the launcher's main. When args (os.Args[1:]) start with Flag it runs the command
// they name with this process's standard streams, writes its report, and returns the child's
// exit status (1 when it was killed) and true; otherwise it returns 0, false and does nothing.
func Main(args []string, stderr io.Writer) (code int, launcher bool) {
	if len(args) == 0 || args[0] != Flag {
		return 0, false
	}
	if len(args) < 5 || args[3] != "--" {
		fmt.Fprintln(stderr, "spawn: want "+Flag+" FILE MAXRSS -- NAME ARG...")
		return 2, true
	}
	maxRSS, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil || maxRSS < 0 {
		fmt.Fprintf(stderr, "spawn: bad MAXRSS %q\n", args[2])
		return 2, true
	}
	return launch(args[1], maxRSS, args[4:], stderr), true
}

func launch(reportPath string, maxRSS int64, argv []string, stderr io.Writer) int {
	runtime.LockOSThread() // the child's parent-death signal follows this thread (Linux)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	cmd.SysProcAttr = spawnAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "spawn %s: %v\n", argv[0], err)
		return 1
	}
	rep := launchReport{RusageRSS: -1, SampledHWM: -1, LauncherRSS: -1, WriteBytes: -1}
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(SamplePeriod)
		defer t.Stop()
		for {
			if m, ok := childMemory(cmd.Process.Pid); ok {
				rep.SampledHWM = max(rep.SampledHWM, m.hwm)
				if maxRSS > 0 && m.rss > maxRSS {
					rep.Capped = true
					cmd.Process.Kill()
					return
				}
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	cmd.Wait()
	close(stop)
	<-sampled
	if cmd.ProcessState == nil {
		fmt.Fprintf(stderr, "spawn %s: no exit status\n", argv[0])
		return 1
	}
	rep.CPUNanos = int64(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
	if rss, ok := peakRSS(cmd.ProcessState); ok {
		rep.RusageRSS = rss
	}
	if w, ok := writeBytes(cmd.ProcessState); ok {
		rep.WriteBytes = w
	}
	if hwm, ok := host.SelfPeakRSS(); ok {
		rep.LauncherRSS = hwm
	}
	b, _ := json.Marshal(rep) // a struct of numbers always marshals
	if err := os.WriteFile(reportPath, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "spawn: %v\n", err)
		return 1
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		return max(code, 1) // -1: killed by a signal
	}
	return 0
}

// LastLines returns the last n lines of s, for error messages.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
