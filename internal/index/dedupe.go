package index

import (
	"hash/fnv"
	"strings"
)

// DedupeSlack is how many results past the page a store reads before Dedupe, so that the page
// is still full after duplicates are merged.
const DedupeSlack = 10

// ContentHash is the hash Dedupe compares pages by: of a document's title and text, as a store
// indexed them. Zero is "unknown" (a link-only entry has no content).
func ContentHash(title, text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(title))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return h.Sum64() | 1
}

// SamePageURL returns the URL a server answers the same as u: u without a last path segment of
// index.html or index.htm (before any query), so that "http://h/d/index.html" is "http://h/d/".
func SamePageURL(u string) string {
	path, query, hasQuery := strings.Cut(u, "?")
	for _, name := range []string{"index.html", "index.htm"} {
		if rest, ok := strings.CutSuffix(path, "/"+name); ok && strings.Contains(rest, "://") {
			path = rest + "/"
			break
		}
	}
	if hasQuery {
		return path + "?" + query
	}
	return path
}

// Dedupe returns rs, best first, with one result per page (issue 11, "one page, one result"):
// results are the same page when their URLs are (SamePageURL), when one names the other as its
// canonical URL, or when both have the same non-zero ContentHash. A page is shown at the place
// of its best result, under the URL its results name canonical, else under its shortest URL
// ("/" rather than "/index.html"), with that URL's own title, snippet and state, and the best
// score. rs is not changed.
func Dedupe(rs []Result) []Result {
	group := make([]int, len(rs)) // union-find over rs
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	union := func(i, j int) {
		a, b := find(i), find(j)
		if a > b {
			a, b = b, a
		}
		group[b] = a // the root is the best-placed result
	}
	byURL := map[string]int{}
	byHash := map[uint64]int{}
	for i, r := range rs {
		k := SamePageURL(r.URL)
		if j, ok := byURL[k]; ok {
			union(i, j)
		} else {
			byURL[k] = i
		}
		if r.ContentHash != 0 {
			if j, ok := byHash[r.ContentHash]; ok {
				union(i, j)
			} else {
				byHash[r.ContentHash] = i
			}
		}
	}
	for i, r := range rs {
		if r.Canonical != "" {
			if j, ok := byURL[SamePageURL(r.Canonical)]; ok {
				union(i, j)
			}
		}
	}
	members := map[int][]int{}
	for i := range rs {
		members[find(i)] = append(members[find(i)], i)
	}
	out := make([]Result, 0, len(members))
	for i := range rs {
		if find(i) != i {
			continue
		}
		m := members[i]
		named := map[string]bool{}
		for _, j := range m {
			if rs[j].Canonical != "" {
				named[rs[j].Canonical] = true
			}
		}
		pick := m[0]
		for _, j := range m[1:] {
			a, b := rs[j], rs[pick]
			switch {
			case named[a.URL] != named[b.URL]:
				if named[a.URL] {
					pick = j
				}
			case a.LinkOnly != b.LinkOnly:
				if !a.LinkOnly {
					pick = j
				}
			case len(a.URL) < len(b.URL):
				pick = j
			}
		}
		r := rs[pick]
		r.Score = rs[i].Score
		out = append(out, r)
	}
	return out
}
