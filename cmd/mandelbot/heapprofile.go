package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// envHeapProfile names a file to write heap profiles of the whole command to, for finding what
// grows with a crawl under bench/ (issue 29). The profile is rewritten every heapProfileEvery,
// so the file holds one from the last seconds before the process ended, when the crawl's
// structures are at their largest.
const envHeapProfile = "MANDELBOT_HEAPPROFILE"

// heapProfileEvery is how often the heap profile named by envHeapProfile is rewritten.
const heapProfileEvery = 5 * time.Second

// startHeapProfile rewrites a heap profile into path every heapProfileEvery (nothing when path is
// empty), and returns the function that writes the last one and stops. A profile that cannot be
// written is reported on standard error once, and no more are tried.
func startHeapProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(heapProfileEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if err := writeHeapProfile(path); err != nil {
					fmt.Fprintf(os.Stderr, "mandelbot: heap profile: %v\n", err)
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// writeHeapProfile writes the heap profile to path through a temporary file, so that path always
// holds a whole profile.
func writeHeapProfile(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
