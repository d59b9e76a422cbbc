package main

import (
	"fmt"

	"github.com/temoto/robotstxt"
)

// temotoPeer drives github.com/temoto/robotstxt: FromBytes once per site,
// FindGroup(agent) once per site, Group.Test(path) per URL.
//
// FromBytes returns no data at all when a file has a line it rejects (a
// rule before any User-agent, a bad Crawl-delay). A caller then has no
// rules to apply; the adapter counts such a site as allowing everything
// and notes() reports how many sites that was.
type temotoPeer struct{}

func (temotoPeer) name() string { return "temoto" }

func (temotoPeer) checkAll(sites []Site, out []bool) {
	for _, s := range sites {
		r, err := robotstxt.FromBytes(s.Robots)
		if err != nil {
			for i := range s.Paths {
				out[s.First+i] = true
			}
			continue
		}
		g := r.FindGroup(agent)
		for i, p := range s.Paths {
			out[s.First+i] = g.Test(p)
		}
	}
}

func (temotoPeer) parseAll(sites []Site) int {
	n := 0
	for _, s := range sites {
		if _, err := robotstxt.FromBytes(s.Robots); err == nil {
			n++
		}
	}
	return n
}

func (temotoPeer) worst(body []byte, path, _ string) func() bool {
	r, err := robotstxt.FromBytes(body)
	if err != nil {
		return func() bool { return true }
	}
	g := r.FindGroup(agent)
	return func() bool { return g.Test(path) }
}

func (temotoPeer) notes(w *Workload) []string {
	failed, failedURLs := 0, 0
	for _, s := range w.Sites {
		if _, err := robotstxt.FromBytes(s.Robots); err != nil {
			failed++
			failedURLs += len(s.URLs)
		}
	}
	if failed == 0 {
		return nil
	}
	return []string{fmt.Sprintf("temoto: FromBytes returned an error (no rules) for %d of %d sites (%d URLs); those URLs count as allowed.",
		failed, len(w.Sites), failedURLs)}
}
