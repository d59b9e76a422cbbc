package testweb

import (
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// MaxRobotsRedirects is how many redirects a robots.txt fetch follows before it counts
// as 4xx (docs/robots-rules.md rule 21).
const MaxRobotsRedirects = 5

// DefaultMaxPause caps the pause a Retry-After can ask for (rule 23) when DuringPause is
// given no cap.
const DefaultMaxPause = 24 * time.Hour

// BeforeRobots returns, in log order, the logged requests that broke rule 20: "no URL of
// an origin is requested before its robots.txt decision is known". A conforming crawler
// yields none.
//
// The check replays the log. A request for /robots.txt starts a chain for its origin; a
// redirect (301, 302, 303, 307, 308 with a Location) makes the resolved Location the
// chain's next hop, and the request for that URL, on any origin, belongs to the chain
// and is never reported. The chain's last answer settles its origin: 2xx, 304, 4xx
// other than 429, or a redirect past MaxRobotsRedirects hops let crawling start; 429,
// 5xx, and Reset, Hang, Drop or Stall (network errors) do not. An origin once settled
// stays settled, since a crawler keeps a good copy while it retries (rule 21). Every
// other request to an unsettled origin is reported. Entries the log dropped (MaxLog) are
// not seen.
func (w *Web) BeforeRobots() []Request {
	type hop struct {
		origin string
		n      int // redirects followed to reach this hop
	}
	chains := make(map[string]hop) // absolute URL of an expected hop -> its chain
	settled := make(map[string]bool)
	var bad []Request
	for _, r := range w.Requests() {
		origin := w.byKey[r.Key].origin
		u := origin + r.Path
		var hops []hop
		if h, ok := chains[u]; ok {
			hops = append(hops, h)
		}
		if r.Path == RobotsPath {
			hops = append(hops, hop{origin: origin})
		}
		if len(hops) == 0 {
			if !settled[origin] {
				bad = append(bad, r)
			}
			continue
		}
		for _, h := range hops {
			switch {
			case r.Action != Serve:
				// A network error settles nothing.
			case isRedirect(r.Status) && r.Location != "":
				if h.n+1 > MaxRobotsRedirects {
					settled[h.origin] = true
				} else if next, err := resolve(u, r.Location); err == nil {
					chains[next] = hop{origin: h.origin, n: h.n + 1}
				}
			case r.Status/100 == 2, r.Status == http.StatusNotModified,
				r.Status/100 == 4 && r.Status != http.StatusTooManyRequests:
				settled[h.origin] = true
			}
		}
	}
	return bad
}

// DuringPause returns, in log order, the logged requests that broke rule 23: a request
// to an origin that arrived (by Options.Now) before the pause that an earlier 503 or 429
// of that origin asked for had ended. The pause lasts that answer's Retry-After (seconds,
// or an HTTP-date minus the answer's time), capped at maxPause (<= 0 means
// DefaultMaxPause); without a usable Retry-After it lasts backoff, the crawler's first
// backoff step (a crawler that doubles it for later failures passes too).
//
// The log orders requests by arrival, and a 503 is logged before it is answered: a
// request that was already on its way when the 503 was answered is reported as well.
// Check with one request in flight per origin.
func (w *Web) DuringPause(backoff, maxPause time.Duration) []Request {
	if maxPause <= 0 {
		maxPause = DefaultMaxPause
	}
	until := make(map[string]time.Time) // key -> end of the current pause
	var bad []Request
	for _, r := range w.Requests() {
		if end, ok := until[r.Key]; ok && r.At.Before(end) {
			bad = append(bad, r)
		}
		if r.Action == Serve && (r.Status == http.StatusServiceUnavailable || r.Status == http.StatusTooManyRequests) {
			d, ok := retryAfter(r.RetryAfter, r.At)
			if !ok {
				d = backoff
			}
			until[r.Key] = r.At.Add(min(d, maxPause))
		}
	}
	return bad
}

// retryAfter parses a Retry-After value sent at time at: delta-seconds or an HTTP-date.
func retryAfter(v string, at time.Time) (time.Duration, bool) {
	v = trimASCII(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseUint(v, 10, 32); err == nil {
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(at), 0), true
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// resolve returns ref resolved against base as an absolute URL string.
func resolve(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u, err := b.Parse(ref)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}
