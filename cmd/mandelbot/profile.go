package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// envCPUProfile names a file to write a CPU profile of the whole command to, for measuring the
// crawler under bench/ (crawlbench and sitebench pass it through to the child process).
const envCPUProfile = "MANDELBOT_CPUPROFILE"

// startProfile starts a CPU profile into path (nothing when path is empty) and returns the function
// that stops it. A profile that cannot be written is reported on standard error and skipped.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mandelbot: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "mandelbot: cpu profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
