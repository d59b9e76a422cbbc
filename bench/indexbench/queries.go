package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/internal/index"
)

// query is one search of the fixed set, with the class it stands for.
type query struct {
	Class string
	Text  string
}

// queryClass is a kind of query: how it draws its words.
type queryClass struct {
	Name  string
	Words func(r *rand.Rand) []string
}

// queryClasses returns the classes of the query set in report order. Words within a query
// are ANDed by the index, so a query with an unknown word matches nothing as typed; a misspelt
// word (misspelt: a medium word with two neighbours swapped) is searched again corrected from
// the index's vocabulary (index.SearchRespelled, issue 32), as an unknown word is looked up in
// it. The misspelt class comes last, so the other classes draw the same queries as before it.
func queryClasses(frequent, medium, rare band, unknown func() string, misspelt func(string) string) []queryClass {
	pick := func(b band) func(r *rand.Rand) string {
		return func(r *rand.Rand) string { return b.Words[r.IntN(len(b.Words))] }
	}
	f, m, x := pick(frequent), pick(medium), pick(rare)
	return []queryClass{
		{"1 frequent word", func(r *rand.Rand) []string { return []string{f(r)} }},
		{"1 medium word", func(r *rand.Rand) []string { return []string{m(r)} }},
		{"1 rare word", func(r *rand.Rand) []string { return []string{x(r)} }},
		{"2 medium words", func(r *rand.Rand) []string { return []string{m(r), m(r)} }},
		{"frequent + rare", func(r *rand.Rand) []string { return []string{f(r), x(r)} }},
		{"frequent + medium + rare", func(r *rand.Rand) []string { return []string{f(r), m(r), x(r)} }},
		{"no match: unknown word", func(*rand.Rand) []string { return []string{unknown()} }},
		{"no match: medium + unknown", func(r *rand.Rand) []string { return []string{m(r), unknown()} }},
		{"misspelt: medium + misspelt medium", func(r *rand.Rand) []string { return []string{m(r), misspelt(m(r))} }},
	}
}

// querySet draws perClass queries of every class from d's vocabulary with a seeded generator:
// the same documents and seed always give the same queries. It returns the class names in
// report order too.
func querySet(d *docFreq, perClass int, seed uint64) ([]query, []string, error) {
	frequent, medium, rare, err := d.bands()
	if err != nil {
		return nil, nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x7175657279)) // "query"
	unknown := func() string { return d.unknownWord(r) }
	misspelt := func(w string) string { return d.misspelt(r, w) }
	var qs []query
	var names []string
	for _, c := range queryClasses(frequent, medium, rare, unknown, misspelt) {
		names = append(names, c.Name)
		for range perClass {
			qs = append(qs, query{Class: c.Name, Text: strings.Join(c.Words(r), " ")})
		}
	}
	return qs, names, nil
}

// sample is one timed search.
type sample struct {
	Took           time.Duration
	CPU            time.Duration // the process's CPU time during the search; -1 unknown
	Results, Total int
}

// onlyClasses keeps the queries, and the class names, whose class name holds part ("" keeps
// all): the set is drawn whole first, so each class keeps the queries it has in a full run.
func onlyClasses(qs []query, names []string, part string) ([]query, []string) {
	if part == "" {
		return qs, names
	}
	out := slices.DeleteFunc(slices.Clone(qs), func(q query) bool { return !strings.Contains(q.Class, part) })
	return out, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !strings.Contains(n, part) })
}

// timeQueries runs every query once to warm up, then repeat times over the whole set (classes
// interleaved), timing each Search with limit results per page. It returns the samples of
// each class. A non-nil profile receives a CPU profile of the timed runs (not the warm-up), a
// non-nil answers each query's answer in the warm-up (writeAnswer).
func timeQueries(ctx context.Context, s index.Searcher, qs []query, repeat, limit int, profile, answers io.Writer) (map[string][]sample, error) {
	var page index.Page
	search := func(q query) (sample, error) {
		c0, cpuOK := host.SelfCPU()
		t := time.Now()
		p, err := s.Search(ctx, index.Query{Text: q.Text, Limit: limit})
		took := time.Since(t)
		page = p
		c1, _ := host.SelfCPU()
		cpu := c1 - c0
		if !cpuOK {
			cpu = -1
		}
		if err != nil {
			return sample{}, fmt.Errorf("search %q: %w", q.Text, err)
		}
		return sample{Took: took, CPU: cpu, Results: len(p.Results), Total: p.Total}, nil
	}
	for _, q := range qs {
		if _, err := search(q); err != nil {
			return nil, err
		}
		if answers != nil {
			if err := writeAnswer(answers, q, page); err != nil {
				return nil, fmt.Errorf("-results: %w", err)
			}
		}
	}
	if profile != nil {
		if err := pprof.StartCPUProfile(profile); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	out := map[string][]sample{}
	for range repeat {
		for _, q := range qs {
			smp, err := search(q)
			if err != nil {
				return nil, err
			}
			out[q.Class] = append(out[q.Class], smp)
		}
	}
	return out, nil
}

// writeAnswer writes one line of a query's answer: its class, text, total (with "+" when it is
// a lower bound) and the URLs of its results in order, tab-separated, so that two builds'
// answers to one query set compare with diff.
func writeAnswer(w io.Writer, q query, p index.Page) error {
	total := fmt.Sprint(p.Total)
	if p.TotalIsLowerBound {
		total += "+"
	}
	fields := []string{q.Class, q.Text, total}
	for _, r := range p.Results {
		fields = append(fields, r.URL)
	}
	_, err := fmt.Fprintln(w, strings.Join(fields, "\t"))
	return err
}

// percentile returns the p-th percentile (0 < p <= 100) of ds by the nearest-rank method: the
// smallest value that at least p% of the samples do not exceed. It returns 0 for no samples.
// ds is not modified.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
