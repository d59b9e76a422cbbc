package main

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strings"
)

// Judged is one query of the judged set and the pages a person typing it wants.
type Judged struct {
	Line     int      // line number in the file, for messages
	Query    string   // what the person types, passed to `mandelbot search` as one argument
	Class    string   // one of classes
	Relevant []string // paths relative to the site's root, the best first; never empty
}

// QuerySet is the judged set: its header (the comment lines, which name the site and its
// version) and its queries in file order.
type QuerySet struct {
	Header  []string
	Queries []Judged
}

// Classes of a query, in the order the report lists them. The last three came with the
// second set (issue 32): definition (everyday words naming a defined identifier), tutorial
// ("<topic> tutorial", "<verb>ing <things>"), title (the words are in the wanted page's title
// and URL path both).
var classes = []string{"word", "topic", "function", "identifier", "phrase", "question", "misspelling",
	"definition", "tutorial", "title"}

// ParseQuerySet reads the judged set's TSV form (see queries.tsv's header): comment lines
// start with #, blank lines are skipped, every other line is
// "query<TAB>class<TAB>path path ...". A malformed line, an unknown class, a path that is not
// a clean relative path, or a query given twice is an error naming the line.
func ParseQuerySet(r io.Reader) (QuerySet, error) {
	var qs QuerySet
	seen := map[string]int{}
	known := map[string]bool{}
	for _, c := range classes {
		known[c] = true
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			qs.Header = append(qs.Header, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return QuerySet{}, fmt.Errorf("query set line %d: %d tab-separated fields, want 3", n, len(f))
		}
		q := Judged{Line: n, Query: strings.TrimSpace(f[0]), Class: f[1], Relevant: strings.Fields(f[2])}
		if q.Query == "" {
			return QuerySet{}, fmt.Errorf("query set line %d: empty query", n)
		}
		if !known[q.Class] {
			return QuerySet{}, fmt.Errorf("query set line %d: unknown class %q", n, q.Class)
		}
		if len(q.Relevant) == 0 {
			return QuerySet{}, fmt.Errorf("query set line %d: no relevant page", n)
		}
		for _, p := range q.Relevant {
			if p != path.Clean(p) || path.IsAbs(p) || p == "." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, "#?") {
				return QuerySet{}, fmt.Errorf("query set line %d: %q is not a clean relative path", n, p)
			}
		}
		if prev, dup := seen[strings.ToLower(q.Query)]; dup {
			return QuerySet{}, fmt.Errorf("query set line %d: query %q already on line %d", n, q.Query, prev)
		}
		seen[strings.ToLower(q.Query)] = n
		qs.Queries = append(qs.Queries, q)
	}
	if err := sc.Err(); err != nil {
		return QuerySet{}, fmt.Errorf("read query set: %w", err)
	}
	if len(qs.Queries) == 0 {
		return QuerySet{}, fmt.Errorf("query set: no queries")
	}
	return qs, nil
}
