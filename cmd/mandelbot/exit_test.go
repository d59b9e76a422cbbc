package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// Exit status 2 is for bad usage or unreadable input only; a command that fails while running
// (here: the address is taken) exits 1.
func TestRuntimeFailureExitsOne(t *testing.T) {
	data := t.TempDir()
	s, err := sqlite.Open(context.Background(), filepath.Join(data, "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, errOut := runCLI(t, "", "serve", "--data", data, "--addr", ln.Addr().String())
	if code != exitFailure || !strings.Contains(errOut, "address already in use") {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming the busy address", code, errOut)
	}
}
