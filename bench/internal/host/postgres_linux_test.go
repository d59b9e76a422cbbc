//go:build linux

package host

import "testing"

// postgresTicks reads utime+stime+cutime+cstime of postgres processes only, from /proc/PID/stat
// lines (the command may hold spaces and parentheses).
func TestPostgresTicks(t *testing.T) {
	line := "4242 (postgres) S 1 4242 4242 0 -1 4194560 800 0 0 0 150 25 7 3 20 0 1 0 100 230000000 3000 18446744073709551615"
	if got, ok := postgresTicks(line); !ok || got != 185 {
		t.Errorf("postgresTicks = %d, %v; want 185, true", got, ok)
	}
	if _, ok := postgresTicks("77 (go (test)) S 1 77 77 0 -1 0 0 0 0 0 9 9 0 0 20 0 1 0 1 1 1 1"); ok {
		t.Error("postgresTicks counted a process that is not postgres")
	}
}
