package sqlite

import (
	"path/filepath"
	"sync"
	"testing"
)

// statementLog records the statements a store runs while a test asks it to (Options.observe):
// for the tests that check which statements a search runs, not only what it returns. Safe for
// concurrent use; the zero value records nothing until during is called.
type statementLog struct {
	mu  sync.Mutex
	on  bool
	ran []string
}

func (l *statementLog) observe(q string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		l.ran = append(l.ran, oneLine(q))
	}
}

// during runs fn and returns the statements the store ran meanwhile, each on one line.
func (l *statementLog) during(fn func()) []string {
	l.mu.Lock()
	l.on, l.ran = true, nil
	l.mu.Unlock()
	fn()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return l.ran
}

// openObserved opens a new store in a temporary directory whose statements log records; the
// store is closed when the test ends.
func openObserved(t *testing.T) (*Store, *statementLog) {
	t.Helper()
	log := &statementLog{}
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: observing(log.observe)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}
