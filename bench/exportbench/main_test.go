package main

import (
	"io"
	"testing"
)

// Bad flags are a usage error (exit 2) before anything is built or crawled.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"-sizes", "ten"}, {"-sizes", "5"}, {"-words", "0"}, {"extra"}} {
		if code := run(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}
