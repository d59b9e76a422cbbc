//go:build race

package crawler

// raceDetector: the tests run under the race detector, which multiplies memory use and slows
// every goroutine; memory bounds cannot be measured then.
const raceDetector = true
