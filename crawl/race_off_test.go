//go:build !race

package crawl_test

// raceDetector: see race_on_test.go.
const raceDetector = false
