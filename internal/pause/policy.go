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
	return Doubling(d, strike, maxPause)
}

// Doubling is the n-th wait of a backoff that starts at first and doubles each time, capped at
// ceiling: first for n <= 1, then 2×first, 4×first, ... It is the one backoff of the crawl: a
// pause's without Retry-After, and a retry's after a request got no answer.
func Doubling(first time.Duration, n int, ceiling time.Duration) time.Duration {
	d := first
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}
