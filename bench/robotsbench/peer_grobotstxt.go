package main

import "github.com/jimsmart/grobotstxt"

// grobotstxtPeer drives github.com/jimsmart/grobotstxt, a port of Google's
// C++ parser. Its API has no parsed form to keep: AgentAllowed(body,
// agent, url) parses the whole file on every call, so the benchmark calls
// it once per URL, as a user of the library would, and reports it as is.
type grobotstxtPeer struct{}

func (grobotstxtPeer) name() string { return "grobotstxt" }

func (grobotstxtPeer) checkAll(sites []Site, out []bool) {
	for _, s := range sites {
		for i, u := range s.URLs {
			out[s.First+i] = grobotstxt.AgentAllowed(s.RobotsText, agent, u)
		}
	}
}

// parseAll makes one AgentAllowed call per file for the site's root URL:
// the library's parse is that pass over the body, driven for one agent.
func (grobotstxtPeer) parseAll(sites []Site) int {
	n := 0
	for _, s := range sites {
		if grobotstxt.AgentAllowed(s.RobotsText, agent, s.Root) {
			n++
		}
	}
	return n
}

func (grobotstxtPeer) worst(body []byte, _, url string) func() bool {
	text := string(body)
	return func() bool { return grobotstxt.AgentAllowed(text, agent, url) }
}

func (grobotstxtPeer) notes(*Workload) []string { return nil }
