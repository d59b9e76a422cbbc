package robots

import (
	"fmt"
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

// Defaults of Policy, each from docs/robots-rules.md section C.
const (
	DefaultTTL        = 48 * time.Hour      // rule 22: a decision is reused for 48 hours
	DefaultMinTTL     = time.Minute         // floor for a max-age of 0 or no-cache: never a fetch per page
	DefaultAs404After = 30 * 24 * time.Hour // rule 21: 5xx for this long is treated as 404
	DefaultRetryFirst = time.Minute         // rule 21: first retry of an unreachable robots.txt
	DefaultRetryMax   = 24 * time.Hour      // cap of the retry backoff
)

// Policy is how an origin's robots.txt decisions age. The zero value uses the defaults above.
type Policy struct {
	TTL        time.Duration // --robots-ttl; a shorter Cache-Control max-age wins (rule 22)
	MinTTL     time.Duration
	As404After time.Duration // --robots-5xx-as-404-after
	RetryFirst time.Duration
	RetryMax   time.Duration
	MaxBytes   int // parse limit (rule 10)
}

func (p Policy) or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// State is one origin's robots.txt knowledge, for one agent: the persisted record plus the parsed
// group. A State is owned by one goroutine (the crawl's scheduler); it is not safe for
// concurrent use, but the *robotstxt.Group it holds is.
type State struct {
	rec   store.RobotsRecord
	agent string
	group *robotstxt.Group // nil unless rec holds usable rules
}

// NewState restores an origin's state from its persisted record (the zero record: never fetched).
func NewState(rec store.RobotsRecord, agent string, p Policy) *State {
	s := &State{rec: rec, agent: agent}
	s.compile(p)
	return s
}

func (s *State) compile(p Policy) {
	s.group = nil
	if s.rec.GoodBody {
		s.group = robotstxt.Parse(s.rec.Body, robotstxt.MaxBytes(p.MaxBytes)).For(s.agent)
	}
}

// Record returns the persistent form of the state. Body is shared, not copied: do not modify it.
func (s *State) Record() store.RobotsRecord { return s.rec }

// Group returns the group of the good copy in use, or nil when there is none.
func (s *State) Group() *robotstxt.Group { return s.group }

// Due reports whether robots.txt must be fetched now, and the validators to send when a good copy
// can be revalidated. It is due when never fetched, when the good copy has expired, and when an
// unreachable robots.txt reaches its retry time.
func (s *State) Due(now time.Time) (bool, http.Header) {
	switch {
	case s.rec.Kind == 0:
		return true, nil
	case !s.rec.RetryAt.IsZero():
		if now.Before(s.rec.RetryAt) {
			return false, nil
		}
	case now.Before(s.rec.ExpiresAt):
		return false, nil
	}
	return true, s.validators()
}

// NextDue is when Due next becomes true, for scheduling.
func (s *State) NextDue() time.Time {
	switch {
	case s.rec.Kind == 0:
		return time.Time{}
	case !s.rec.RetryAt.IsZero():
		return s.rec.RetryAt
	}
	return s.rec.ExpiresAt
}

func (s *State) validators() http.Header {
	if !s.rec.GoodBody || len(s.rec.Body) == 0 {
		return nil // an allow-all decision has no body to revalidate
	}
	h := http.Header{}
	if s.rec.ETag != "" {
		h.Set("If-None-Match", s.rec.ETag)
	}
	if s.rec.LastMod != "" {
		h.Set("If-Modified-Since", s.rec.LastMod)
	}
	if len(h) == 0 {
		return nil
	}
	return h
}

// Usable reports whether URLs may be tested (and then requested) now: a good decision that has
// not expired, or, while an unreachable robots.txt is being retried, the last good copy
// (rule 21). An expired good copy is not usable until it is revalidated (rule 22): no URL is
// requested on stale rules, except while robots.txt is unreachable.
func (s *State) Usable(now time.Time) bool {
	if !s.rec.GoodBody {
		return false
	}
	if !s.rec.RetryAt.IsZero() {
		return true // unreachable now, keep using the good copy while retrying
	}
	return now.Before(s.rec.ExpiresAt)
}

// Unreachable reports whether the origin has no usable robots.txt because it cannot be read.
func (s *State) Unreachable() bool { return !s.rec.GoodBody && s.rec.Failures > 0 }

// Test decides one URL (its path and query) against the usable decision. The caller checks Usable
// first; on an unusable state Test disallows, so a mistake never requests a URL.
func (s *State) Test(pathAndQuery string) (bool, robotstxt.Verdict, string) {
	if !s.rec.GoodBody {
		return false, robotstxt.Verdict{}, s.rec.Reason
	}
	v := s.group.Test(pathAndQuery)
	switch {
	case !v.Allowed:
		return false, v, fmt.Sprintf("%s (robots.txt line %d)", v.Rule, v.Rule.Line)
	case s.rec.Kind == uint8(KindAllowAll):
		return true, v, s.rec.Reason
	}
	return true, v, ""
}

// Apply records the outcome of a robots.txt fetch made at d.FetchedAt: new rules replace the old
// ones; a 304 renews the good copy; an unreachable answer schedules a retry with backoff, keeps a
// good copy in use, and after Policy.As404After of 5xx answers switches to "treated as 404".
func (s *State) Apply(d Decision, p Policy) {
	now := d.FetchedAt
	ttl := p.or(p.TTL, DefaultTTL)
	if d.MaxAge >= 0 && d.MaxAge < ttl {
		ttl = max(d.MaxAge, p.or(p.MinTTL, DefaultMinTTL))
	}
	switch d.Kind {
	case KindRules, KindAllowAll:
		body := []byte(nil)
		if d.Kind == KindRules {
			body = d.Body
		}
		s.rec = store.RobotsRecord{
			Kind: uint8(d.Kind), Status: d.Status, Body: body, Reason: d.Reason(),
			FetchedAt: now, ExpiresAt: now.Add(ttl), ETag: d.ETag, LastMod: d.LastModified,
			GoodBody: true, WARC: d.WARC,
		}
	case KindNotModified:
		s.rec.FetchedAt, s.rec.ExpiresAt = now, now.Add(ttl)
		s.rec.Failures, s.rec.FailingSince, s.rec.RetryAt = 0, time.Time{}, time.Time{}
		s.rec.Reason = d.Reason()
		if d.ETag != "" {
			s.rec.ETag = d.ETag
		}
		if !d.WARC.IsZero() {
			s.rec.WARC = d.WARC // the revisit record of the 304
		}
		return
	case KindUnreachable:
		s.unreachable(d, p)
	}
	s.compile(p)
}

func (s *State) unreachable(d Decision, p Policy) {
	now := d.FetchedAt
	s.rec.Failures++
	s.rec.Status = d.Status
	if d.Status >= 500 || d.Status == http.StatusTooManyRequests {
		if s.rec.FailingSince.IsZero() {
			s.rec.FailingSince = now
		}
	} else {
		s.rec.FailingSince = time.Time{} // a network error is not the server answering 5xx
	}
	window := p.or(p.As404After, DefaultAs404After)
	if !s.rec.FailingSince.IsZero() && now.Sub(s.rec.FailingSince) >= window {
		// rule 21: a server that keeps answering 5xx is treated as if it had answered 404.
		s.rec = store.RobotsRecord{
			Kind: uint8(KindAllowAll), Status: d.Status, GoodBody: true, AsNotFound: true,
			Reason: fmt.Sprintf("robots.txt has answered %d since %s (longer than %s): treated as 404, everything allowed",
				d.Status, s.rec.FailingSince.Format(time.RFC3339), window),
			FetchedAt: now, ExpiresAt: now.Add(p.or(p.TTL, DefaultTTL)),
			FailingSince: s.rec.FailingSince,
		}
		return
	}
	retry := p.or(p.RetryFirst, DefaultRetryFirst)
	for i := 1; i < s.rec.Failures && retry < p.or(p.RetryMax, DefaultRetryMax); i++ {
		retry *= 2
	}
	retry = min(retry, p.or(p.RetryMax, DefaultRetryMax))
	if d.RetryAfter > retry {
		retry = min(d.RetryAfter, p.or(p.RetryMax, DefaultRetryMax))
	}
	// The retry is timed from the end of the failed attempt (issue 9): a robots.txt that
	// stalled for the whole timeout is not asked again the moment it gave up.
	end := d.DoneAt
	if end.Before(now) {
		end = now // a Decision made without DoneAt
	}
	s.rec.RetryAt = end.Add(retry)
	if s.rec.GoodBody {
		s.rec.Reason = fmt.Sprintf("%s; using the copy fetched %s until it can be read again", d.Reason(), s.rec.FetchedAt.Format(time.RFC3339))
	} else {
		s.rec.Kind = uint8(KindUnreachable)
		s.rec.Reason = d.Reason()
	}
}
