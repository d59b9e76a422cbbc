package main

import (
	"math"
	"runtime"
	"slices"
	"time"
)

// sample is what one timed pass cost.
type sample struct {
	elapsed time.Duration
	cpu     time.Duration // process CPU time, all threads; 0 when unknown
	mallocs uint64        // heap objects allocated (runtime.MemStats.Mallocs delta)
	bytes   uint64        // heap bytes allocated (runtime.MemStats.TotalAlloc delta)
}

// measure runs f once after a garbage collection, so that one pass does not
// pay for the garbage of the one before, and reports its cost. The
// allocation counts and CPU time are process-wide: nothing else may run
// meanwhile. CPU time moves much less than wall time when other processes
// compete for the machine, so it is reported beside it.
func measure(f func()) sample {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, cpuOK := processCPU()
	start := time.Now()
	f()
	elapsed := time.Since(start)
	cpu1, _ := processCPU()
	runtime.ReadMemStats(&after)
	var cpu time.Duration
	if cpuOK {
		cpu = cpu1 - cpu0
	}
	return sample{
		elapsed: elapsed,
		cpu:     cpu,
		mallocs: after.Mallocs - before.Mallocs,
		bytes:   after.TotalAlloc - before.TotalAlloc,
	}
}

// median returns the median of xs (the mean of the two middle values for an
// even count), or NaN for no values. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// repsFor returns how many repetitions of a pass that took one make at
// least min, never fewer than one.
func repsFor(one, min time.Duration) int {
	if one <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(float64(min)/float64(one))))
}
