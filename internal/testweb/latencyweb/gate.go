package latencyweb

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Report is what the request log says of a crawl's politeness and completeness (Web.Gate).
type Report struct {
	Pages, Robots, Private, Repeated, Missing int
	RobotsAgain                               int            // robots.txt requests after an origin's first (rule 20: the decision is cached)
	Overlaps                                  int            // requests that began while another to the same origin was in flight
	ShortGaps                                 int            // requests that began less than the delay after the origin's last answer
	ShortestGap                               time.Duration  // the shortest gap seen between an answer and the next request; -1 if none
	BeforeRobots                              int            // page requests before the origin's robots.txt was answered
	First, Last                               time.Time      // the first request's start, the last answer's end
	ByAgent                                   map[string]int // requests by User-Agent
}

// Gate reads the request log against delay, the least gap between an origin's answer and its
// next request, and empties the log for the next crawler.
func (w *Web) Gate(delay time.Duration) Report {
	w.mu.Lock()
	log := w.log
	w.log = make(map[int][]hit)
	w.mu.Unlock()
	return gate(log, w.opts.Origins, w.opts.Pages, delay)
}

// gate is Gate on a log of origins origins of pages pages each.
func gate(log map[int][]hit, origins, pages int, delay time.Duration) Report {
	g := Report{ShortestGap: -1, ByAgent: make(map[string]int)}
	for origin := range origins {
		hits := log[origin]
		slices.SortFunc(hits, func(a, b hit) int { return a.start.Compare(b.start) })
		seen := make(map[string]bool)
		robotsAt := time.Time{}
		for i, h := range hits {
			g.ByAgent[h.agent]++
			if g.First.IsZero() || h.start.Before(g.First) {
				g.First = h.start
			}
			if h.end.After(g.Last) {
				g.Last = h.end
			}
			switch {
			case h.path == "/robots.txt":
				g.Robots++
				if robotsAt.IsZero() {
					robotsAt = h.end
				} else {
					g.RobotsAgain++
				}
			case strings.HasPrefix(h.path, "/private/"):
				g.Private++
			default:
				if seen[h.path] {
					g.Repeated++
				}
				seen[h.path] = true
				g.Pages++
				if robotsAt.IsZero() || h.start.Before(robotsAt) {
					g.BeforeRobots++
				}
			}
			if i == 0 {
				continue
			}
			prev := hits[i-1]
			if h.start.Before(prev.end) {
				g.Overlaps++
				continue
			}
			gap := h.start.Sub(prev.end)
			if gap < delay {
				g.ShortGaps++
			}
			if g.ShortestGap < 0 || gap < g.ShortestGap {
				g.ShortestGap = gap
			}
		}
		g.Missing += pages - len(seen)
	}
	return g
}

// Problems are the gate's failures, in words; none for a polite, complete crawl that fetched
// robots.txt once per origin.
func (g Report) Problems() []string {
	var p []string
	add := func(n int, what string) {
		if n > 0 {
			p = append(p, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(g.Overlaps, "requests sent while another to the same origin was in flight")
	add(g.ShortGaps, "requests sent sooner than the delay after the origin's last answer")
	add(g.RobotsAgain, "robots.txt requests after the origin's first")
	add(g.BeforeRobots, "page requests before the origin's robots.txt")
	add(g.Private, "requests for a path robots.txt disallows")
	add(g.Repeated, "page requests repeated")
	add(g.Missing, "pages never requested")
	return p
}
