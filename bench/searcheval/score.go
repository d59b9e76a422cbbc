package main

import (
	"net/url"
	"slices"
	"strings"
)

// cutoff is the depth of every measure: a person looks at the first page of 10 results.
const cutoff = 10

// Outcome is what search answered for one judged query.
type Outcome struct {
	Judged
	Results  []Hit  // the results in order, at most cutoff of them
	Total    int    // the search's total
	Err      string // a failed search (the query is then scored as finding nothing)
	Rank     int    // 1-based position of the first relevant result; 0: none in the top cutoff
	BestRank int    // the same for Relevant[0], the page the person wants most
}

// Hit is one result as the evaluation sees it.
type Hit struct {
	URL      string
	Path     string // the result's page relative to the site root; "" when it is not on the site
	LinkOnly bool
}

// sitePath returns the page u names, relative to the root of the site served at host (a
// host name, any port), as the judged set writes it: "/" is "index.html", a directory URL
// ends in "index.html", the fragment and query are dropped. It returns "" for a URL of
// another host or one that does not parse.
func sitePath(u, host string) string {
	p, err := url.Parse(u)
	if err != nil || !strings.EqualFold(p.Hostname(), host) {
		return ""
	}
	rel := strings.TrimPrefix(p.Path, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += indexFile
	}
	return rel
}

// score fills o's ranks from o.Results.
func (o *Outcome) score() {
	o.Rank, o.BestRank = 0, 0
	for i, h := range o.Results {
		if i >= cutoff {
			break
		}
		if o.Rank == 0 && slices.Contains(o.Relevant, h.Path) {
			o.Rank = i + 1
		}
		if o.BestRank == 0 && h.Path == o.Relevant[0] {
			o.BestRank = i + 1
		}
	}
}

// Metrics are the measures over a set of outcomes, each a fraction in [0, 1].
type Metrics struct {
	N         int
	MRR       float64 // mean of 1/Rank, 0 for a query with no relevant result in the top cutoff
	Success1  float64 // share of queries with a relevant result first
	Success10 float64 // share of queries with a relevant result in the top cutoff
	Best1     float64 // share of queries with the best page (Relevant[0]) first
	// LinkOnlyTop5 counts the link-only results among the first noiseDepth of every query
	// (issue 32, "no noise in the top five").
	LinkOnlyTop5 int
}

// noiseDepth is how deep LinkOnlyTop5 looks: the results a person reads without scrolling.
const noiseDepth = 5

// measure computes the metrics of outs; zero Metrics for none.
func measure(outs []Outcome) Metrics {
	m := Metrics{N: len(outs)}
	if m.N == 0 {
		return m
	}
	for _, o := range outs {
		if o.Rank > 0 {
			m.MRR += 1 / float64(o.Rank)
			m.Success10++
		}
		if o.Rank == 1 {
			m.Success1++
		}
		if o.BestRank == 1 {
			m.Best1++
		}
		for _, h := range o.Results[:min(noiseDepth, len(o.Results))] {
			if h.LinkOnly {
				m.LinkOnlyTop5++
			}
		}
	}
	n := float64(m.N)
	m.MRR /= n
	m.Success1 /= n
	m.Success10 /= n
	m.Best1 /= n
	return m
}
