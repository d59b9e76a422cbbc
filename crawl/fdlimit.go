package crawl

// Every request in flight holds a connection, and so a file descriptor; idle connections kept for
// reuse, the store's files and a served site hold more. A Concurrency the process cannot open
// connections for fails requests with "too many open files" instead of crawling faster.
const (
	// fdPerRequest is the share of the open-file limit one request in flight may count on: a
	// third, leaving the rest to idle connections, the store and the listeners.
	fdPerRequest = 3
	// minConcurrency is what MaxConcurrency never goes below, whatever the limit says.
	minConcurrency = 16
)

// MaxConcurrency is the most requests in flight Run allows, whatever Config.Concurrency asks:
// a third of the process's open-file limit (RLIMIT_NOFILE; Go raises the soft limit to the
// hard one at start), and at least 16. Where the limit cannot be read it is DefaultConcurrency.
// It reads the limit at each call and is safe for concurrent use.
func MaxConcurrency() int {
	n, ok := openFileLimit()
	if !ok {
		return DefaultConcurrency
	}
	return max(int(min(n/fdPerRequest, 1<<20)), minConcurrency)
}
