package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 32 part 5: one invocation runs several judged sets; bad set lists are usage errors.
func TestRunRejectsBadSets(t *testing.T) {
	for name, args := range map[string][]string{
		"unknown name":       {"-sets", "nope"},
		"sets with -site":    {"-sets", "httpd", "-site", "x"},
		"set with -queries":  {"-set", "a,b,c.tsv", "-queries", "q.tsv"},
		"set of two fields":  {"-set", "a,b"},
		"set with no host":   {"-set", "a,,c.tsv"},
		"same set twice":     {"-sets", "httpd,httpd"},
		"all and one of all": {"-sets", "all,httpd"},
	} {
		var errOut strings.Builder
		if code := run(args, io.Discard, &errOut); code != 2 {
			t.Errorf("%s: exit %d, want 2 (%s)", name, code, errOut.String())
		}
	}
}

func TestNamedSets(t *testing.T) {
	all, err := namedSets("all")
	if err != nil || len(all) != len(knownSets) || all[0].Name != "postgresql" {
		t.Fatalf("all: %+v %v", all, err)
	}
	two, err := namedSets("httpd, postgresql")
	if err != nil || len(two) != 2 || two[0].Name != "httpd" || two[1].Host != defaultHost {
		t.Fatalf("httpd,postgresql: %+v %v", two, err)
	}
}

// With several sets, -data and -reuse name a directory holding one crawl per set; with the
// one set of -site/-queries/-host they are used as given, as before issue 32.
func TestPlanSetsDataDirectories(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "a.html"), []byte("<title>a</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(dir, "mine.tsv")
	if err := os.WriteFile(q, []byte("alpha\tword\ta.html\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	legacy, err := planSets(config{site: site, queries: q, host: "h.test", data: "D"})
	if err != nil || len(legacy) != 1 || legacy[0].data != "D" || legacy[0].Host != "h.test" {
		t.Fatalf("legacy: %+v %v", legacy, err)
	}
	var sets []judgedSet
	if err := (setFlag{&sets}).Set(site + ",h.test," + q); err != nil {
		t.Fatal(err)
	}
	plans, err := planSets(config{sets: sets, reuse: "R"})
	if err != nil || len(plans) != 1 || plans[0].Name != "mine" || plans[0].reuse != filepath.Join("R", "mine") {
		t.Fatalf("-set: %+v %v", plans, err)
	}
	// A page the set names that the site lacks stops the run before anything is crawled.
	if err := os.WriteFile(q, []byte("alpha\tword\tb.html\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := planSets(config{sets: sets}); err == nil {
		t.Fatal("a missing judged page was not reported")
	}
}
