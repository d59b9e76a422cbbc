// Package mandelbotcli builds the `mandelbot` command for the benchmarks and reads what
// `mandelbot crawl` prints. It holds no state.
package mandelbotcli

import (
	"context"
	"strings"

	"github.com/fractle/mandelbot/bench/internal/gobuild"
)

// FinishedReason is the stop reason of a crawl that ran out of work, as `mandelbot crawl`
// prints it ("Crawl ended: nothing left to crawl").
const FinishedReason = "nothing left to crawl"

// Build compiles the CLI from the main module's source directory src into dir and returns
// the binary's path.
func Build(ctx context.Context, src, dir string) (string, error) {
	return gobuild.Binary(ctx, src, "./cmd/mandelbot", dir)
}

// BuiltOr returns bin, a benchmark's `-mandelbot` binary (a base build to alternate with a new
// one), or, when bin is empty, the CLI built from src into dir (Build).
func BuiltOr(ctx context.Context, bin, src, dir string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	return Build(ctx, src, dir)
}

// SummaryLines picks the stop reason and the "pages answered" figures out of the summary
// `mandelbot crawl` prints (cmd/mandelbot/summary.go); empty strings when a line is missing.
func SummaryLines(stdout string) (stop, pages string) {
	for line := range strings.Lines(stdout) {
		if rest, ok := strings.CutPrefix(line, "Crawl ended: "); ok {
			stop = strings.TrimSpace(rest)
		}
		if _, rest, ok := strings.Cut(line, "pages answered"); ok {
			pages = strings.Join(strings.Fields(rest), " ")
		}
	}
	return stop, pages
}
