//go:build !race

package sqlite

// raceDetector: see race_on_test.go.
const raceDetector = false
