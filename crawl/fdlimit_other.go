//go:build !unix

package crawl

// openFileLimit is unknown here.
func openFileLimit() (uint64, bool) { return 0, false }
