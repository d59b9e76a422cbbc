package store

import (
	"context"
	"errors"
	"time"

	"github.com/fractle/mandelbot/internal/index"
)

// Store is what a crawl persists to. Implementations are safe for concurrent use by the
// goroutines of one crawl process.
//
// Leases let several crawl processes share one store (PostgreSQL) without ever sending two
// workers' requests to the same origin at once: a process only schedules origins it holds a
// lease on. An embedded store used by one process at a time (SQLite) may grant every lease.
type Store interface {
	// Commit applies a batch atomically: either every change is durable or none is. New URLs
	// that are already known are ignored (de-duplication on the canonical URL); Commit returns
	// the ones that were new, with their IDs, in the order given. Origins named by new URLs are
	// created as needed (with a zero record).
	Commit(ctx context.Context, b Batch) ([]URL, error)

	// LeaseOrigins grants owner up to max origins that have URLs due at or before until, and that
	// no other live owner holds, for ttl from now. It returns their keys, earliest due first.
	// Calling it again renews the leases owner already holds.
	LeaseOrigins(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error)
	// LeaseOrigin grants owner the origin key for ttl from now unless another live owner holds
	// it; ok reports whether owner holds it now. The crawler leases an origin before it
	// schedules any of its URLs, including origins it discovers during the run.
	LeaseOrigin(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (ok bool, err error)
	// ReleaseOrigins gives up owner's leases on keys (all of owner's leases when keys is nil).
	ReleaseOrigins(ctx context.Context, owner string, keys []string) error

	// DueURLs returns up to limit URLs of origin that are due at now (NextAt set and not after
	// now), shallowest first, then in discovery order.
	DueURLs(ctx context.Context, origin string, now time.Time, limit int) ([]URL, error)
	// Seeds returns the crawl's seeds, every run's (page URLs at depth 0 reached by no
	// redirect), in ID order: a resumed run derives its --scope from them.
	Seeds(ctx context.Context) ([]string, error)
	// Origin returns an origin's record; ok is false when the origin is unknown.
	Origin(ctx context.Context, key string) (o Origin, ok bool, err error)

	// EachURL calls fn for every known URL in ID order; EachOrigin for every origin in key order.
	// An error from fn stops the walk and is returned.
	EachURL(ctx context.Context, fn func(URL) error) error
	EachOrigin(ctx context.Context, fn func(Origin) error) error
	// Counts returns how many URLs are in each state, as Effective shows them at now (a queued
	// URL of a paused origin counts as paused).
	Counts(ctx context.Context, now time.Time) (map[State]int, error)

	// RefreshIndex brings the search entries of URLs whose anchor text changed up to date and
	// reports how many it rewrote. Commits of documents are searchable at once; anchor text
	// from later links becomes searchable at the next refresh.
	RefreshIndex(ctx context.Context) (int, error)
	// Searcher answers queries over the index.
	index.Searcher

	Close() error
}

// Batch is one atomic set of changes, usually the outcome of one or a few requests. The
// Store does not retain the Batch or its slices after Commit returns.
type Batch struct {
	New     []NewURL // discovered URLs, ignored when known
	Updates []URL    // changes to known URLs, matched by ID; URL, Origin, Kind and DiscoveredAt never change
	Origins []Origin // origin records to write (insert or replace)
	// Documents and Links feed the search index (see Document).
	Documents []Document
	Links     []Link
}

// Empty reports whether the batch changes nothing.
func (b Batch) Empty() bool {
	return len(b.New) == 0 && len(b.Updates) == 0 && len(b.Origins) == 0 && len(b.Documents) == 0 && len(b.Links) == 0
}

// ErrLocked reports a store that another process is using (an embedded store allows one crawl
// process at a time).
var ErrLocked = errors.New("store is in use by another process")
