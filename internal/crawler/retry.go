package crawler

import (
	"time"

	"github.com/fractle/mandelbot/internal/pause"
)

// Retries of a request that got no answer (issue 29): a timeout, a connection error, a body
// that stalled or dripped until the timeout. Such a URL is asked again at most MaxAttempts-1
// times (DefaultMaxAttempts: 3 tries in all), never at once: the n-th retry waits
// RetryBackoff × 2^(n-1) after the failed try ended (10 s, then 20 s by default), capped at
// MaxRetryBackoff. The retry is written to the store (the URL stays queued, due at that time,
// its attempts counted), so a later run keeps both the wait and the count.
const (
	DefaultRetryBackoff = 10 * time.Second
	MaxRetryBackoff     = 10 * time.Minute
)

// retryBackoff is how long the retry after the attempts-th failed try waits (attempts >= 1).
func (o Options) retryBackoff(attempts int) time.Duration {
	d := o.RetryBackoff
	if d <= 0 {
		d = DefaultRetryBackoff
	}
	return pause.Doubling(d, attempts, MaxRetryBackoff)
}
