package main

import (
	"fmt"
	"strings"
)

// agent is the product token every library is asked about.
const agent = "Mandelbot"

// A peer is one robots.txt library wrapped for the benchmark. The loops
// that are timed live inside the adapter, so no interface call is paid per
// URL and each library is driven the way its API is meant to be used.
type peer interface {
	// name is the short name used by -only and in the tables.
	name() string
	// checkAll does a crawler's work over every site: parse the site's
	// robots.txt (once, if the API allows it), pick the group for agent,
	// decide every URL. It stores the verdict of URL i of site s in
	// out[s.First+i] (true = allowed).
	checkAll(sites []Site, out []bool)
	// parseAll parses every robots file once, as the library parses a
	// file for later use. The result only keeps the work observable.
	parseAll(sites []Site) int
	// worst prepares what the library can prepare from body outside the
	// timed loop and returns a function that decides one URL: path is its
	// path?query, url the whole URL.
	worst(body []byte, path, url string) func() bool
	// notes describes, outside any timing, how the library treated the
	// workload where that needs saying (parse errors and the like).
	notes(w *Workload) []string
}

// allPeers lists every library, mandelbot first: it is the reference the
// ratios and the agreement counts are computed against.
func allPeers() []peer {
	return []peer{mandelbotPeer{}, temotoPeer{}, grobotstxtPeer{}}
}

// selectPeers returns the peers named in the comma-separated list only, in
// allPeers order; an empty list selects all of them.
func selectPeers(only string) ([]peer, error) {
	all := allPeers()
	if strings.Trim(only, ", ") == "" {
		return all, nil
	}
	want := make(map[string]bool)
	for n := range strings.SplitSeq(only, ",") {
		if n = strings.Trim(n, " "); n != "" {
			want[n] = true
		}
	}
	var out []peer
	for _, p := range all {
		if want[p.name()] {
			out = append(out, p)
			delete(want, p.name())
		}
	}
	for n := range want {
		return nil, fmt.Errorf("select libraries: unknown library %q (known: %s)", n, peerNames(all))
	}
	return out, nil
}

func peerNames(ps []peer) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name()
	}
	return strings.Join(names, ",")
}

func peerByName(name string) (peer, bool) {
	for _, p := range allPeers() {
		if p.name() == name {
			return p, true
		}
	}
	return nil, false
}
