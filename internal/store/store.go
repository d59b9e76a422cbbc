package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/index"
)

// The store is split into roles, each a small interface that the embedded (SQLite) and the
// networked (PostgreSQL) stores implement and that storetest checks:
//
//   - Queue: what the crawl path calls. Only batched calls: one Commit per group of outcomes,
//     one LoadOrigin per origin taken, one DueURLs per refill of a window.
//   - Leases: which crawl process may schedule which origin.
//   - Reader: reads for export, the dashboard and resuming (never on the crawl path).
//   - Indexer: folds committed documents and anchor text into the search index, off the crawl
//     path, in large idempotent batches.
//   - Settings: the crawl's own settings, kept with it for the next run.
//   - index.Searcher: queries.
//
// Store is all of them together, as a concrete store implements them; code should ask for the
// narrowest role it needs.

// Queue is the crawl path's side of a store. Implementations are safe for concurrent use.
type Queue interface {
	// Commit applies a batch atomically: either every change is durable or none is. New URLs
	// that are already known are ignored (de-duplication on IDOf of the canonical URL); Commit
	// returns the ones that were new, in the order given. Origins named by new URLs are created
	// as needed (with a zero record). Documents are staged: they become searchable when an
	// Indexer folds them in, not at Commit.
	Commit(ctx context.Context, b Batch) ([]URL, error)
	// LoadOrigin returns what a crawl process needs to take over an origin: its record (ok false
	// when unknown), up to limit due URLs as DueURLs orders them, and the IDs of every URL of the
	// origin the store knows, so the process can de-duplicate new URLs of it in memory.
	LoadOrigin(ctx context.Context, key string, now time.Time, limit int) (OriginLoad, error)
	// DueURLs returns up to limit URLs of origin that are due at now (NextAt set and not after
	// now), shallowest first, then in discovery order.
	DueURLs(ctx context.Context, origin string, now time.Time, limit int) ([]URL, error)
	// Seeds returns the crawl's seeds, every run's (page URLs at depth 0 reached by no
	// redirect), in discovery order: a resumed run derives its --scope from them.
	Seeds(ctx context.Context) ([]string, error)
	// Reschedule changes when fetched URLs (state fetched) are due again, in one transaction,
	// as r says; URLs in any other state keep their NextAt (issue 13: --revisit applied to pages
	// already fetched, --recrawl-after, --recrawl).
	Reschedule(ctx context.Context, r Reschedule) error
}

// Reschedule is what Queue.Reschedule does to fetched URLs. The zero value changes nothing.
type Reschedule struct {
	// Revisit, when positive, makes every fetched URL due Revisit after its FetchedAt (a new
	// revisit interval applies to pages fetched under the old one).
	Revisit time.Duration
	// FetchedBefore, when not zero, makes every fetched URL whose FetchedAt is at or before it
	// due at Now, unless it is due before Now already. It applies after Revisit.
	FetchedBefore time.Time
	Now           time.Time
}

// OriginLoad is the answer of Queue.LoadOrigin. The caller owns its slices.
type OriginLoad struct {
	Origin Origin
	Known  bool    // the store has a record of the origin
	Due    []URL   // due URLs, at most the limit asked for
	More   bool    // more URLs were due than the limit
	IDs    []int64 // every URL ID of the origin, in no order
	// Waiting are the IDs among IDs of URLs that are not due at now (fetched and due again
	// later, out of scope, or waiting for a retry), in no order.
	Waiting []int64
	// Requested counts the origin's pages (KindPage) that have been requested in any run: in
	// state StateFetched or StateError. The per-origin page budget starts from it (issue 29).
	Requested int
}

// Leases let several crawl processes share one store without ever sending two workers' requests
// to the same origin at once: a process only schedules origins it holds a lease on. An embedded
// store used by one process at a time (SQLite) may grant every lease.
type Leases interface {
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
}

// Reader reads what a crawl recorded, for export, the dashboard and resuming. It is never
// called on the crawl path.
type Reader interface {
	// Origin returns an origin's record; ok is false when the origin is unknown.
	Origin(ctx context.Context, key string) (o Origin, ok bool, err error)
	// EachURL calls fn for every known URL in discovery order; EachOrigin for every origin in
	// key order. An error from fn stops the walk and is returned.
	EachURL(ctx context.Context, fn func(URL) error) error
	EachOrigin(ctx context.Context, fn func(Origin) error) error
	// Counts returns how many URLs are in each state, as Effective shows them at now (a queued
	// URL of a paused origin counts as paused).
	Counts(ctx context.Context, now time.Time) (map[State]int, error)
	// EachPage calls fn for every fetched page (KindPage, FetchedAt set) in discovery order,
	// with what the last fetch left: its header, title, text and links, whether the indexer has
	// folded its document in yet or not. It reads PageBatch pages at a time, so its memory is
	// bounded whatever the store's size. An error from fn stops the walk and is returned.
	EachPage(ctx context.Context, fn func(Page) error) error
}

// Indexer folds what Commit staged into the search index. Every call is one or more
// transactions of its own, and replaying one after a crash is harmless: a staged document
// leaves the stage in the same transaction that indexes it.
type Indexer interface {
	// IndexPending folds up to max staged documents into the link graph and the entries'
	// metadata (their outgoing links replace the old ones) and reports how many it folded. A
	// store may write their own text too, when it can do so beside the crawl's commits (SQLite:
	// on a writer of its own). When enough link changes wait (the store's own signal: a log of a
	// given size, never a timer), it merges them and rewrites anchor text by the power-of-two rule
	// (issue 26 part 2): each entry's anchor text then reflects its inlinks (the distinct pages
	// linking to it) within a factor of two. An entry's anchor text is rewritten when it has none
	// yet (a new entry) and when its inlink count has reached twice, or fallen to half, the count
	// at its last rewrite (or fallen to 0), and not otherwise (AnchorsDue): over a crawl it is
	// written O(log inlinks) times, never once per merge. A store may also leave the link-only
	// entries of URLs queued (StateQueued) for RefreshIndex: such a URL will most likely be
	// fetched soon, and writing its link-only entry only to replace it then is most of a large
	// crawl's index work (issue 8).
	IndexPending(ctx context.Context, max int) (int, error)
	// RefreshIndex indexes every staged document, then rewrites each entry whose anchor text
	// changed since it was written, and reports how many entries it wrote. It is exact: when it
	// returns nil, everything committed before the call is searchable, with all its anchor text.
	RefreshIndex(ctx context.Context) (int, error)
	// IndexLag reports how many committed documents are not searchable yet (staged, folded or
	// not).
	IndexLag(ctx context.Context) (int, error)
}

// Store is every role of a store together; implementations are safe for concurrent use by the
// goroutines of one process.
type Store interface {
	Queue
	Leases
	Reader
	Indexer
	Settings
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
	// Owner, when set, fences the batch (a Shared store checks it; others ignore it): Commit
	// refuses the whole batch, with a *LeaseLostError, when any origin it writes for (those of
	// its Updates and Documents, and its Origins records) is not leased by Owner at the time of
	// the commit. New URLs are not fenced: adding a URL that may be known changes nothing.
	Owner string
}

// Empty reports whether the batch changes nothing.
func (b Batch) Empty() bool {
	return len(b.New) == 0 && len(b.Updates) == 0 && len(b.Origins) == 0 && len(b.Documents) == 0 && len(b.Links) == 0 // Owner alone changes nothing
}

// ErrLocked reports a store that another process is using (an embedded store allows one crawl
// process at a time).
var ErrLocked = errors.New("store is in use by another process")

// Shared is implemented by stores that several crawl processes may use at once (PostgreSQL):
// their leases exclude other owners, expire after their TTL unless renewed, and Commit fences
// Batch.Owner. A store that does not implement it (SQLite: one process per file) may grant every
// lease and ignores Batch.Owner. storetest checks exclusion, renewal, expiry and fencing only on
// stores that implement Shared.
//
// A lease is live while its expiry (the now of its last grant or renewal, plus its ttl) is after
// the now a caller passes: the processes' clocks must agree to well within a TTL.
type Shared interface {
	Leases
	// RenewOrigins extends owner's leases on keys to ttl from now and returns the keys owner
	// still holds, in no order. A key that another owner has taken, or that was released, is not
	// returned and not granted again: its loss is final for the caller, which must drop what it
	// holds of the origin and may lease it anew (and reload it) later. A lease that expired but
	// that no other owner took is still owner's, and is renewed.
	RenewOrigins(ctx context.Context, owner string, keys []string, now time.Time, ttl time.Duration) ([]string, error)
	// NextDue tells a process whose own origins are done whether the cluster still has work it
	// may come to hold, so that it ends only when nothing is due cluster-wide (issue 12). It
	// returns the earliest time at which owner could lease an origin with a URL due (NextAt
	// set), over the origins owner does not hold a live lease of: for a free origin (no lease,
	// or an expired one), its earliest due URL's NextAt; for one another live owner holds, the
	// later of that and the lease's expiry (the lease lapses then unless renewed). Zero when no
	// such origin has a due URL. It says nothing of pauses or robots.txt: the process that
	// leases and loads an origin decides those (frontier), in one place.
	NextDue(ctx context.Context, owner string, now time.Time) (time.Time, error)
}

// ErrLeaseLost reports a fenced write (Batch.Owner) for an origin whose lease the writer no
// longer holds; the error is a *LeaseLostError naming the origins.
var ErrLeaseLost = errors.New("lease lost")

// LeaseLostError is Commit's refusal of a batch whose Owner does not hold the lease of Origins.
// Nothing of the batch was applied.
type LeaseLostError struct {
	Owner   string
	Origins []string // sorted
}

func (e *LeaseLostError) Error() string {
	return fmt.Sprintf("%s no longer holds the lease of %d origins (%s)", e.Owner, len(e.Origins), strings.Join(e.Origins, ", "))
}

// Is makes errors.Is(err, ErrLeaseLost) true.
func (e *LeaseLostError) Is(target error) bool { return target == ErrLeaseLost }

// ErrLinkWithoutDocument reports a batch with a Link whose FromID has no Document in the same
// batch: links are recorded as part of their page's document.
var ErrLinkWithoutDocument = errors.New("link without its page's document in the batch")
