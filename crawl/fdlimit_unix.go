//go:build unix

package crawl

import "syscall"

// openFileLimit is the process's soft RLIMIT_NOFILE.
func openFileLimit() (uint64, bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, false
	}
	return l.Cur, true
}
