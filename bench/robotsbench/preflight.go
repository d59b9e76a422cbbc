package main

import (
	"fmt"
	"io"
	"slices"
)

// crash is a site on which a library panicked, with what it said.
type crash struct {
	lib   string
	site  string
	value any
}

// preflight runs every library on every site once, site by site, and
// returns the sites on which one of them panicked, in corpus order per
// library. The benchmark leaves those sites out for every library, so that
// all of them still get the same inputs, and says so in its output. Nothing
// is timed here.
func preflight(peers []peer, w *Workload) []crash {
	var crashes []crash
	out := make([]bool, w.URLs)
	for _, p := range peers {
		for _, s := range w.Parse {
			if v := recovered(func() { p.parseAll([]Site{s}) }); v != nil {
				crashes = append(crashes, crash{p.name(), s.Name, v})
			}
		}
		for _, s := range w.Sites {
			if slices.ContainsFunc(crashes, func(c crash) bool { return c.lib == p.name() && c.site == s.Name }) {
				continue
			}
			if v := recovered(func() { p.checkAll([]Site{s}, out) }); v != nil {
				crashes = append(crashes, crash{p.name(), s.Name, v})
			}
		}
	}
	return crashes
}

// recovered runs f and returns the value it panicked with, or nil.
func recovered(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// without returns a copy of w without the named sites, its URLs numbered
// again from zero. Rejected URLs of the left-out sites stay listed.
func (w *Workload) without(sites map[string]bool) *Workload {
	if len(sites) == 0 {
		return w
	}
	n := &Workload{Rejected: w.Rejected}
	for _, s := range w.Parse {
		if !sites[s.Name] {
			n.Parse = append(n.Parse, s)
			n.ParseBytes += len(s.Robots)
		}
	}
	for _, s := range w.Sites {
		if !sites[s.Name] {
			s.First = n.URLs
			n.URLs += len(s.URLs)
			n.Sites = append(n.Sites, s)
		}
	}
	return n
}

// printCrashes reports the sites left out because a library panicked.
func printCrashes(w io.Writer, crashes []crash, excluded map[string]bool) {
	if len(crashes) == 0 {
		return
	}
	per := map[string]int{}
	var order []string
	for _, c := range crashes {
		if per[c.lib] == 0 {
			order = append(order, c.lib)
		}
		per[c.lib]++
	}
	fmt.Fprintf(w, "WARNING: %d sites left out for every library because a library panicked on them:\n", len(excluded))
	for _, lib := range order {
		shown := 0
		fmt.Fprintf(w, "  %s panicked on %d sites", lib, per[lib])
		for _, c := range crashes {
			if c.lib == lib && shown < maxCrashesShown {
				if shown == 0 {
					fmt.Fprintf(w, ", e.g.")
				}
				fmt.Fprintf(w, "\n    %s: %v", c.site, c.value)
				shown++
			}
		}
		fmt.Fprintln(w)
	}
}

// maxCrashesShown is how many panicking sites are listed per library.
const maxCrashesShown = 3
