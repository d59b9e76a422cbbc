package main

import (
	"fmt"

	"github.com/fractle/mandelbot/robotstxt"
)

// mandelbotPeer drives github.com/fractle/mandelbot/robotstxt: Parse once
// per site, For(agent) once per site, Test(path) per URL.
type mandelbotPeer struct{}

func (mandelbotPeer) name() string { return "mandelbot" }

func (mandelbotPeer) checkAll(sites []Site, out []bool) {
	for _, s := range sites {
		g := robotstxt.Parse(s.Robots).For(agent)
		for i, p := range s.Paths {
			out[s.First+i] = g.Test(p).Allowed
		}
	}
}

func (mandelbotPeer) parseAll(sites []Site) int {
	n := 0
	for _, s := range sites {
		if robotstxt.Parse(s.Robots) != nil {
			n++
		}
	}
	return n
}

func (mandelbotPeer) worst(body []byte, path, _ string) func() bool {
	g := robotstxt.Parse(body).For(agent)
	return func() bool { return g.Test(path).Allowed }
}

func (mandelbotPeer) notes(*Workload) []string { return nil }

// mandelbotExplain says, outside any timing, why mandelbot decides path as
// it does on site s: the deciding line and rule, or the reason no rule did.
func mandelbotExplain(s Site, path string) string {
	v := robotstxt.Parse(s.Robots).For(agent).Test(path)
	if v.Reason == robotstxt.ReasonRule {
		return fmt.Sprintf("line %d %q", v.Rule.Line, v.Rule.String())
	}
	return v.Reason.String()
}
