package crawl

import "time"

// Clock is the time a crawl goes by: request times, delays, pauses, robots.txt lifetimes,
// MaxTime and MaxWait, progress and the times in Stats and Document. Config.Clock nil means
// the wall clock; another Clock is for tests and simulations (a virtual clock runs a crawl
// with hour-long pauses in milliseconds). A Clock must be safe for concurrent use.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// At returns a channel that receives once the clock reaches t, and a function that stops
	// the timer (safe to call more than once, and after it fired). idle tells the clock that
	// the crawl has nothing under way: nothing but time can change its state, so a virtual
	// clock may jump straight to t; the wall clock ignores it.
	At(t time.Time, idle bool) (<-chan time.Time, func())
}
