package gobuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Binary builds a runnable program named after its package, and reports a package that does
// not compile with the compiler's words.
func TestBinary(t *testing.T) {
	src := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.test/hello\n\ngo 1.26\n")
	if err := os.MkdirAll(filepath.Join(src, "hello"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("hello/main.go", "package main\n\nfunc main() { println(\"hi\") }\n")
	bin, err := Binary(context.Background(), src, "./hello", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(bin) != "hello" {
		t.Errorf("binary %s, want one named hello", bin)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil || !strings.Contains(string(out), "hi") {
		t.Errorf("running it: %v, %q", err, out)
	}
	write("hello/main.go", "package main\n\nfunc main() { undefined() }\n")
	if _, err := Binary(context.Background(), src, "./hello", t.TempDir()); err == nil || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("a package that does not compile: %v, want the compiler's error", err)
	}
}
