package main

import (
	"math"
	"testing"
)

func TestSitePath(t *testing.T) {
	for u, want := range map[string]string{
		"http://pg.test:8080/":                       "index.html",
		"http://pg.test:8080/index.html":             "index.html",
		"http://PG.test:1/sql-vacuum.html#x":         "sql-vacuum.html",
		"http://pg.test/sub/":                        "sub/index.html",
		"http://pg.test/a.html?q=1":                  "a.html",
		"http://www.postgresql.org/docs/vacuum.html": "",
		"http://pg.test.evil/a.html":                 "",
		"::":                                         "",
	} {
		if got := sitePath(u, "pg.test"); got != want {
			t.Errorf("sitePath(%q) = %q, want %q", u, got, want)
		}
	}
}

// The rank is the first relevant result's; the best rank is Relevant[0]'s; results past the
// cutoff do not count.
func TestScoreAndMeasure(t *testing.T) {
	hits := func(paths ...string) []Hit {
		var h []Hit
		for _, p := range paths {
			h = append(h, Hit{Path: p})
		}
		return h
	}
	outs := []Outcome{
		{Judged: Judged{Relevant: []string{"a", "b"}}, Results: hits("a", "b")},                                         // rank 1, best 1
		{Judged: Judged{Relevant: []string{"a", "b"}}, Results: hits("x", "b", "a")},                                    // rank 2, best 3
		{Judged: Judged{Relevant: []string{"a"}}, Results: hits("x", "y")},                                              // none
		{Judged: Judged{Relevant: []string{"a"}}, Results: hits("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a")}, // past the cutoff
	}
	for i := range outs {
		outs[i].score()
	}
	for i, want := range [][2]int{{1, 1}, {2, 3}, {0, 0}, {0, 0}} {
		if outs[i].Rank != want[0] || outs[i].BestRank != want[1] {
			t.Errorf("outcome %d: rank %d best %d, want %v", i, outs[i].Rank, outs[i].BestRank, want)
		}
	}
	m := measure(outs)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if m.N != 4 || !near(m.MRR, (1+0.5)/4) || !near(m.Success1, 0.25) || !near(m.Success10, 0.5) || !near(m.Best1, 0.25) {
		t.Errorf("measure = %+v", m)
	}
	if (measure(nil) != Metrics{}) {
		t.Errorf("measure(nil) = %+v", measure(nil))
	}
}

// Issue 32, "no noise in the top five": the link-only results among each query's first five
// are counted, over all queries.
func TestMeasureLinkOnlyTop5(t *testing.T) {
	hits := func(linkOnly ...bool) []Hit {
		var out []Hit
		for _, l := range linkOnly {
			out = append(out, Hit{LinkOnly: l})
		}
		return out
	}
	outs := []Outcome{
		{Judged: Judged{Relevant: []string{"a"}}, Results: hits(false, true, false, false, true, true)}, // the 6th is not counted
		{Judged: Judged{Relevant: []string{"a"}}, Results: hits(true)},
		{Judged: Judged{Relevant: []string{"a"}}},
	}
	if m := measure(outs); m.LinkOnlyTop5 != 3 {
		t.Errorf("LinkOnlyTop5 = %d, want 3", m.LinkOnlyTop5)
	}
}
