package web

import "time"

// Gap is one origin's current gap between requests, as a running crawl decides it (issue 29:
// the larger of the configured delay and the adaptive gap), and why.
type Gap struct {
	D      time.Duration
	Reason string
}

// liveGaps returns the running crawl's gaps by origin key, or nil when the site shows no crawl
// running beside it.
func (s *server) liveGaps() map[string]Gap {
	if s.gaps == nil {
		return nil
	}
	return s.gaps()
}
