package pause

import "time"

const (
	// DefaultFirstBackoff is the pause after a first 503 or 429 without Retry-After (rule 23).
	DefaultFirstBackoff = time.Minute
	// DefaultMax caps every pause, whatever Retry-After asks for (rule 23; the crawl's --max-pause).
	DefaultMax = 24 * time.Hour
)

// Policy decides how long an origin stays paused. The zero value uses DefaultFirstBackoff and
// DefaultMax. A Policy is a plain value, safe to share.
type Policy struct {
	// FirstBackoff is the pause after the first refusal that carried no Retry-After; each
	// further consecutive refusal doubles it.
	FirstBackoff time.Duration
	// Max caps every pause.
	Max time.Duration
}

// Duration returns how long to pause after the strike-th consecutive 503/429 answer (strike
// counts from 1), given the Retry-After the answer carried (ok reports whether it carried a
// valid one). Retry-After wins over backoff when present; both are capped by Max.
func (p Policy) Duration(strike int, retryAfter time.Duration, ok bool) time.Duration {
	maxPause := p.Max
	if maxPause <= 0 {
		maxPause = DefaultMax
	}
	if ok {
		return min(retryAfter, maxPause)
	}
	d := p.FirstBackoff
	if d <= 0 {
		d = DefaultFirstBackoff
	}
	for i := 1; i < strike && d < maxPause; i++ {
		d *= 2
	}
	return min(d, maxPause)
}
