package main

import (
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/internal/testweb"
	"slices"
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

func TestParsePrograms(t *testing.T) {
	got, err := parsePrograms("colly, ceiling")
	if err != nil || got != (programSet{colly: true, ceiling: true}) {
		t.Errorf("parsePrograms = %+v, %v", got, err)
	}
	// Issue 26's peer: Colly storing every page in bleve.
	if got, err := parsePrograms("mandelbot,colly-bleve"); err != nil || got != (programSet{mandelbot: true, collyBleve: true}) {
		t.Errorf("parsePrograms(mandelbot,colly-bleve) = %+v, %v", got, err)
	}
	if _, err := parsePrograms("colly,scrapy"); err == nil {
		t.Error("parsePrograms accepted an unknown program")
	}
	var out, errOut strings.Builder
	if code := run([]string{"-programs", "wget"}, &out, &errOut); code != 2 {
		t.Errorf("run -programs wget = %d, want 2", code)
	}
}

// Without a crawl to copy, the ceiling GETs every origin's robots.txt, then every page once,
// origins in turn.
func TestWebURLs(t *testing.T) {
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 2, PagesPerOrigin: 2}), testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	got := webURLs(web, 2)
	want := []string{web.URL("g0", "/robots.txt"), web.URL("g1", "/robots.txt"), web.URL("g0", "/"), web.URL("g1", "/"),
		web.URL("g0", "/p/1"), web.URL("g1", "/p/1")}
	if !slices.Equal(got, want) {
		t.Errorf("webURLs = %q, want %q", got, want)
	}
}
