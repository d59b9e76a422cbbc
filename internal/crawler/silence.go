package crawler

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/fractle/mandelbot/urlnorm"
)

// silence tracks whether the origins of a run answer at all (issue 27: giving up), and words the
// failure of those that do not. Owned by the scheduler goroutine; the zero value is not usable:
// see newSilence.
type silence struct {
	// answered: some origin answered something in this run; unanswered counts the requests that
	// got no answer.
	answered   bool
	unanswered int
	// firstAsked is when the run's first request went out (zero: none yet): the silence that
	// GiveUpAfter bounds starts there, not at the run's start, which a resumed run waiting out
	// a pause or a worker waiting for leases may have left long before.
	firstAsked time.Time
	// seedOrigins are this run's seeds' origins and unresolved those whose host does not
	// resolve; worded are the origins whose failure noAnswer put in Stats.Failure.
	seedOrigins, unresolved, worded map[string]bool
}

// newSilence returns the silence of a run with seeds.
func newSilence(seeds []*urlnorm.URL) *silence {
	s := &silence{seedOrigins: map[string]bool{}, unresolved: map[string]bool{}, worded: map[string]bool{}}
	for _, u := range seeds {
		s.seedOrigins[u.Origin()] = true
	}
	return s
}

// asking notes a request going out at now.
func (s *silence) asking(now time.Time) {
	if s.firstAsked.IsZero() {
		s.firstAsked = now
	}
}

// heard notes an answer from some origin: the run never gives up now.
func (s *silence) heard() { s.answered = true }

// never reports whether requests went out and nothing ever answered: not a crawl to resume
// later, a failure.
func (s *silence) never() bool { return !s.answered && s.unanswered > 0 }

// giveUpAt is when a run gives up if nothing answers until then: giveUpAfter after its first
// request went out (negative: never); zero when something answered, nothing was asked yet (a
// resumed run waiting out pauses, a worker waiting for leases), or the run never gives up.
// Requests still in flight then are cancelled: a server that accepts and never answers must not
// hold the run past it.
func (s *silence) giveUpAt(giveUpAfter time.Duration) time.Time {
	if s.answered || s.firstAsked.IsZero() || giveUpAfter < 0 {
		return time.Time{}
	}
	return s.firstAsked.Add(giveUpAfter)
}

// noAnswer notes a request (robots.txt or page, of what) of origin that got no answer at all,
// and returns its wording for Stats.Failure ("": keep the one there). all reports that every
// seed's host of the run does not resolve and nothing answered: the run gives up at once,
// naming the host (issue 27).
func (s *silence) noAnswer(origin, what string, err error) (failure string, all bool) {
	s.unanswered++
	s.worded[origin] = true
	var de *net.DNSError
	if s.answered || !errors.As(err, &de) || !de.IsNotFound || !s.seedOrigins[origin] {
		if s.unresolved[origin] {
			return "", false
		}
		return what + ": no answer: " + plainReason(err), false
	}
	s.unresolved[origin] = true
	failure = fmt.Sprintf("%s does not resolve (no such host): is it spelled right?", de.Name)
	return failure, len(s.unresolved) == len(s.seedOrigins)
}

// wordedFor reports whether noAnswer worded the failure of origin.
func (s *silence) wordedFor(origin string) bool { return s.worded[origin] }
