package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fractle/mandelbot/internal/testweb"
)

// loopRun is one measured ceiling run.
type loopRun struct {
	childRun
	Report loopReport
	Served int // requests the web logged during the run
}

// runCeiling re-executes this program (self) in loop mode to GET urls, in order, against web
// with concurrency workers, and checks that the web saw every request.
func runCeiling(ctx context.Context, self string, web *testweb.Web, tmp string, urls []string, concurrency int) (loopRun, error) {
	f, err := os.CreateTemp(tmp, "urls-*.txt")
	if err != nil {
		return loopRun{}, fmt.Errorf("ceiling: %w", err)
	}
	f.Close()
	defer os.Remove(f.Name())
	if err := writeLines(f.Name(), urls); err != nil {
		return loopRun{}, fmt.Errorf("ceiling: %w", err)
	}
	args := []string{"-loop", filepath.Clean(f.Name()), "-concurrency", strconv.Itoa(concurrency)}
	for _, r := range web.Resolve() {
		args = append(args, "-resolve", r)
	}
	before := len(web.Requests())
	child, err := measure(ctx, self, self, args...)
	r := loopRun{childRun: child}
	if err != nil {
		return r, fmt.Errorf("ceiling: %w", err)
	}
	r.Served = len(web.Requests()) - before
	if err := json.Unmarshal([]byte(child.Stdout), &r.Report); err != nil {
		return r, fmt.Errorf("ceiling: read the loop's report %q: %w", child.Stdout, err)
	}
	if r.Report.Errors > 0 {
		return r, fmt.Errorf("ceiling: %d of %d requests got no answer; first: %s", r.Report.Errors, r.Report.Requests, r.Report.FirstErr)
	}
	if r.Served != len(urls) || r.Report.Requests != len(urls) {
		return r, fmt.Errorf("ceiling: asked for %d URLs, the loop made %d requests, the web logged %d", len(urls), r.Report.Requests, r.Served)
	}
	return r, nil
}
