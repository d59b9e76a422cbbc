//go:build !race

package crawler

// raceDetector: see race_on_test.go.
const raceDetector = false
