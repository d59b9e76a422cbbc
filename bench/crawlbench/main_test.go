package main

import (
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"strings"
	"testing"
)

func TestChecks(t *testing.T) {
	clean := crawlRun{StopReason: mandelbotcli.FinishedReason, Tally: tally{Pages: 10, Robots: 1, Sitemaps: 1}}
	if p := checks(clean); len(p) != 0 {
		t.Errorf("checks of a clean crawl = %q, want none", p)
	}
	bad := crawlRun{
		StopReason: "--max-time 1m0s reached",
		Tally:      tally{Private: 1, PrivateSeen: []string{"g0 /private/1"}, Missing: 2, Duplicates: 1, Other: 1, NonOK: 1, BeforeRobots: 1},
	}
	p := checks(bad)
	if len(p) != 7 {
		t.Fatalf("checks = %q, want 7 problems", p)
	}
	if !strings.Contains(p[1], "g0 /private/1") {
		t.Errorf("the /private/ problem %q does not name the URL", p[1])
	}
}

func TestUsage(t *testing.T) {
	var out, errOut strings.Builder
	for _, args := range [][]string{{"-runs", "0"}, {"-concurrency", "0"}, {"extra"}, {"-nosuchflag"}} {
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}
