package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fractle/mandelbot/bench/internal/gobuild"
	"github.com/fractle/mandelbot/bench/internal/spawn"
	"github.com/fractle/mandelbot/internal/testweb"
)

// collyReport is what the Colly peer prints (collypeer.Report).
type collyReport struct {
	Responses     int     `json:"responses"`
	Errors        int     `json:"errors"`
	RobotsBlocked int     `json:"robots_blocked"`
	Selected      int64   `json:"selected"`
	Indexed       int64   `json:"indexed"` // pages stored in the -bleve index
	Seconds       float64 `json:"seconds"`
	FirstErr      string  `json:"first_err"`
}

// collyRun is one measured run of the Colly peer.
type collyRun struct {
	spawn.Run
	Report collyReport
	Tally  tally // the web's requests during the run
	// Err is why the run broke (it did not finish, its report is unreadable, its RSS passed
	// the cap); nil for a run that finished. A broken run is reported, not timed.
	Err error
}

// buildColly compiles the Colly peer (bench/crawlbench/collypeer) of the bench module in
// benchSrc into dir and returns the binary's path.
func buildColly(ctx context.Context, benchSrc, dir string) (string, error) {
	return gobuild.Binary(ctx, benchSrc, "./crawlbench/collypeer", dir)
}

// collyArgs returns the peer's arguments for web: the same concurrency and per-origin limit as
// the crawler, one -resolve per site (each also one LimitRule), every home page as a seed.
func collyArgs(web *testweb.Web, s crawlSettings, extra ...string) []string {
	args := []string{"-concurrency", strconv.Itoa(s.Concurrency), "-per-origin", strconv.Itoa(s.PerOrigin)}
	args = append(args, extra...)
	for _, r := range web.Resolve() {
		args = append(args, "-resolve", r)
	}
	return append(args, web.Seeds()...)
}

// runColly runs the Colly peer bin against web under the launcher and tallies what the web
// received with rec. A run that breaks comes back with Err set.
func runColly(ctx context.Context, opts spawn.Options, bin string, web *testweb.Web, rec *recorder, s crawlSettings, pagesPerOrigin int, extra ...string) collyRun {
	child, err := spawn.Measure(ctx, opts, bin, collyArgs(web, s, extra...)...)
	r := collyRun{Run: child}
	r.Tally, _ = rec.finish(web.Keys(), pagesPerOrigin)
	if err != nil {
		r.Err = fmt.Errorf("colly: %w", err)
		return r
	}
	if err := json.Unmarshal([]byte(child.Stdout), &r.Report); err != nil {
		r.Err = fmt.Errorf("colly: read the peer's report %q: %w", child.Stdout, err)
	}
	return r
}

// collyChecks returns what went wrong in a Colly run, as checks does for the crawler: every
// page exactly once, nothing disallowed, no errors. Colly fetches robots.txt outside its
// LimitRules and without de-duplication, so a repeated robots.txt is a note (collyNotes), not
// a failure; a repeated page is a failure.
func collyChecks(c collyRun) []string {
	if c.Err != nil {
		return []string{c.Err.Error()}
	}
	var p []string
	t := c.Tally
	if c.Report.Errors > 0 {
		p = append(p, fmt.Sprintf("%d requests failed; first: %s", c.Report.Errors, c.Report.FirstErr))
	}
	if t.Private > 0 {
		p = append(p, fmt.Sprintf("%d requests under /private/, which robots.txt disallows: %v", t.Private, t.PrivateSeen))
	}
	if t.Missing > 0 {
		p = append(p, fmt.Sprintf("%d pages never requested: %v", t.Missing, t.MissingSeen))
	}
	if t.RepeatedPages > 0 {
		// Colly's visited check is IsVisited, then Visited, under two locks: two goroutines
		// that meet the same link at once may both fetch it.
		p = append(p, fmt.Sprintf("%d page requests repeated (Colly checks and marks a URL as visited in two steps): %v", t.RepeatedPages, t.RepeatedPageSeen))
	}
	if t.Other > 0 || t.Sitemaps > 0 {
		p = append(p, fmt.Sprintf("%d requests for paths it should not ask for: %v", t.Other+t.Sitemaps, t.OtherSeen))
	}
	if t.NonOK > 0 {
		p = append(p, fmt.Sprintf("%d answers other than 200: %v", t.NonOK, t.NonOKSeen))
	}
	if t.BeforeRobots > 0 {
		p = append(p, fmt.Sprintf("%d requests before their origin's robots.txt (rule 20): %v", t.BeforeRobots, t.BeforeRobotsSeen))
	}
	if c.Report.Responses != t.Pages {
		p = append(p, fmt.Sprintf("Colly reported %d responses, the web served %d pages", c.Report.Responses, t.Pages))
	}
	if c.Report.RobotsBlocked == 0 {
		p = append(p, "Colly refused no link for robots.txt: is it obeying robots.txt?")
	}
	return p
}
