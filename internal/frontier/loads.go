package frontier

import "time"

// Loads and requests take turns. An origin not loaded yet waits in toLoad, in the order it came,
// outside the ready heap; Next alternates between the ready heap's first request and the first
// load whenever both wait, so that neither holds the other back (issue 31: a crawl of 5,000
// seeds loaded every origin before its first request, 2-3 s at a load average of 16, and then
// had 5,000 robots.txt requests to send through 512 slots; taking turns, the first origins are
// answered while the last are loaded). A load is never delayed by time, only by its turn.

// nextToLoad returns the first origin of toLoad still waiting for its load, dropping those
// loaded, loading, forgotten or away since; nil when none waits.
func (f *Frontier) nextToLoad() *origin {
	for len(f.toLoad) > 0 {
		o := f.toLoad[0]
		if f.origins[o.key] == o && !o.loaded && !o.loading && !o.away {
			return o
		}
		f.toLoad[0] = nil
		f.toLoad = f.toLoad[1:]
	}
	return nil
}

// startLoad hands out the load of o, the first origin of toLoad: a load reads the origin's
// record whatever the room (Loaded's More says what is left).
func (f *Frontier) startLoad(o *origin, now time.Time) Step {
	f.toLoad[0] = nil
	f.toLoad = f.toLoad[1:]
	o.loading = true
	limit, _ := f.fill(o)
	f.reserve(o, limit)
	f.fix(o, now)
	return Step{Kind: StepLoad, Origin: o.key, Limit: limit}
}
