package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// loopRun is one measured ceiling run.
type loopRun struct {
	spawn.Run
	Report loopReport
	Pages  int // the URLs that are pages of the web ("/", "/p/N")
	Served int // requests the web received during the run
}

// runCeiling re-executes this program (opts.Self) in loop mode to GET urls, in order, against
// web with concurrency workers, and checks with rec that the web saw every request.
func runCeiling(ctx context.Context, opts spawn.Options, web *testweb.Web, rec *recorder, tmp string, urls []string, concurrency int) (loopRun, error) {
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
	child, err := spawn.Measure(ctx, opts, opts.Self, args...)
	r := loopRun{Run: child}
	if err != nil {
		return r, fmt.Errorf("ceiling: %w", err)
	}
	t, _ := rec.finish(nil, 0)
	r.Served, r.Pages = t.Total(), t.Pages
	if err := json.Unmarshal([]byte(child.Stdout), &r.Report); err != nil {
		return r, fmt.Errorf("ceiling: read the loop's report %q: %w", child.Stdout, err)
	}
	if r.Report.Errors > 0 {
		return r, fmt.Errorf("ceiling: %d of %d requests got no answer; first: %s", r.Report.Errors, r.Report.Requests, r.Report.FirstErr)
	}
	if r.Served != len(urls) || r.Report.Requests != len(urls) {
		return r, fmt.Errorf("ceiling: asked for %d URLs, the loop made %d requests, the web received %d", len(urls), r.Report.Requests, r.Served)
	}
	return r, nil
}
