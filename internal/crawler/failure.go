package crawler

import (
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Failure is a request of a page or sitemap URL that got no usable answer, for
// Options.OnFailure: no answer at all (a network error, a timeout, a body that broke off), or a
// 503 or 429 that paused the origin.
type Failure struct {
	URL     string
	Sitemap bool // the URL is a sitemap's, not a page's
	Depth   int
	// Status is the refusal's status (503 or 429); 0 when there was no answer.
	Status int
	// Reason says what went wrong, for people (the store keeps it as the URL's reason).
	Reason string
	// Attempts counts the URL's tries in a row without a usable answer, this one included.
	Attempts int
	// Retry reports that the URL stays queued and will be asked again (after the origin's pause,
	// for a refusal); false: it is given up (state error) until it is due again (Revisit).
	Retry bool
	At    time.Time
}

// failureOf reports the Failure a page task's result is, if it is one. A cancelled request
// (the run is stopping) is not a failure: its URL stays queued untouched.
func failureOf(r result, now time.Time) (Failure, bool) {
	if r.task.robots || r.canceled || r.fatal != nil || r.early {
		return Failure{}, false
	}
	u := r.url
	f := Failure{URL: u.URL, Sitemap: u.Kind == store.KindSitemap, Depth: u.Depth, Reason: u.Reason, Attempts: u.Attempts, At: now}
	refused := r.outcome.Status == 503 || r.outcome.Status == 429
	switch {
	case r.retry:
		f.Retry = true
	case refused:
		f.Status, f.Retry = r.outcome.Status, u.State == store.StateQueued
	case u.State == store.StateError:
	default:
		return Failure{}, false
	}
	return f, true
}
