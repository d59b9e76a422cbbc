package crawler

import (
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/trap"
	"github.com/fractle/mandelbot/urlnorm"
)

// scope decides which discovered URLs the crawl follows: in --scope of a seed, within
// --max-depth, and not rejected by a trap heuristic (issue 9; the reason names the heuristic),
// the calendar window (issue 29) included. It is immutable and shared by the workers; now is
// the crawl's clock (safe for concurrent use).
type scope struct {
	kind          urlnorm.Scope
	hosts         map[string]bool
	domains       map[string]bool
	maxDepth      int
	calendarYears int // <= 0: no calendar window
	now           func() time.Time
}

func newScope(seeds []*urlnorm.URL, kind urlnorm.Scope, maxDepth, calendarYears int, now func() time.Time) *scope {
	s := &scope{kind: kind, hosts: map[string]bool{}, domains: map[string]bool{}, maxDepth: maxDepth,
		calendarYears: calendarYears, now: now}
	for _, u := range seeds {
		s.hosts[u.Host()] = true
		s.domains[u.RegistrableDomain()] = true
	}
	return s
}

// newURL classifies a discovered URL: queued, or out of scope with the reason.
func (s *scope) newURL(u *urlnorm.URL, kind store.Kind, depth, hops int) store.NewURL {
	n := store.NewURL{URL: u.String(), Origin: u.Origin(), Kind: kind, Depth: depth, Hops: hops, State: store.StateQueued}
	switch {
	case s.kind == urlnorm.ScopeHost && !s.hosts[u.Host()]:
		n.State, n.Reason = store.StateOutOfScope, fmt.Sprintf("host %s is outside --scope host", u.Host())
	case s.kind == urlnorm.ScopeDomain && !s.domains[u.RegistrableDomain()]:
		n.State, n.Reason = store.StateOutOfScope, fmt.Sprintf("domain %s is outside --scope domain", u.RegistrableDomain())
	case s.maxDepth >= 0 && depth > s.maxDepth:
		n.State, n.Reason = store.StateOutOfScope, fmt.Sprintf("depth %d is beyond --max-depth %d", depth, s.maxDepth)
	default:
		if v := trap.Check(u.Path(), u.Query()); v.Rejected() {
			n.State, n.Reason = store.StateOutOfScope, v.Reason
		} else if v := trap.CheckCalendar(u.Path(), u.Query(), s.now(), s.calendarYears); v.Rejected() {
			n.State, n.Reason = store.StateOutOfScope, v.Reason
		}
	}
	return n
}
