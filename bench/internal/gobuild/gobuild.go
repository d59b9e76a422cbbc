// Package gobuild compiles the programs the benchmarks run: the product's command and the peers
// that live in this module. It holds no state.
package gobuild

import (
	"context"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
)

// Binary runs `go build` of the package pkg ("./cmd/mandelbot") of the module in src, writing
// the binary into dir under the package's last element, and returns the binary's path.
func Binary(ctx context.Context, src, pkg, dir string) (string, error) {
	bin := filepath.Join(dir, path.Base(pkg))
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s in %s: %w\n%s", pkg, src, err, out)
	}
	return bin, nil
}
