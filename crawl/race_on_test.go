//go:build race

package crawl_test

// raceDetector: the tests run under the race detector, which multiplies memory use and slows
// every goroutine; memory bounds cannot be measured then.
const raceDetector = true
