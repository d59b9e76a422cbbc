//go:build race

package sqlite

// raceDetector: the tests run under the race detector, which slows every goroutine about tenfold,
// in the child processes of the kill -9 tests too.
const raceDetector = true
