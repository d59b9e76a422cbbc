package crawler

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// write is one outcome to make durable: the batch, the origin whose frontier write it is (every
// write is one: the scheduler counts them by the origins acknowledged), the origins of URLs it
// carries that overflowed their window, and whether it must be committed at once (a robots.txt
// decision or a pause, which the origin's gate waits for).
type write struct {
	origin   string
	batch    store.Batch
	overflow []string
	urgent   bool
	archived bool // names WARC records (issue 13): the archive is synced before the commit
}

// ack reports a group of writes that are durable, in the order they were queued.
type ack struct {
	origins  []string // each write's origin (write.origin), in order
	overflow []string
	added    []store.URL
	docs     int      // documents committed (staged for the indexer)
	docBytes int      // their text, title and headings
	newURLs  int      // new URLs the group's writes carried (crawl.pendingNew), committed or not
	lost     []string // origins whose lease was lost: their outcomes were dropped (commitFenced)
	err      error
}

// Group commit: the writer commits what queued up while the previous commit ran, waiting at most
// commitWindow after the first write of a group for more (but not for an urgent one), and at
// most commitGroupMax writes in one transaction. The window is what a page outcome may trail by:
// a kill -9 loses at most the writes of the open group and of the commit in progress.
//
// A group also ends once it carries commitGroupMaxNew new URLs (issue 29): the store hands back
// each URL it added (a store.URL of 320 bytes), and a group of sitemap outcomes of 1,000 entries
// each held 171 MB in one commit.
const (
	commitWindow      = 20 * time.Millisecond
	commitGroupMax    = 512
	commitGroupMaxNew = 10_000
)

// The backlog: writes the scheduler holds while the writer is busy (a commit, or an indexer's
// fold holding the store's one writer), so that requests go on being sent meanwhile (issue 8:
// with only the writer's queue, the crawl stalled behind every fold, 8.4 s of a 15 s crawl).
// While maxBacklog writes or maxBacklogBytes of them (writeBytes) wait, no request is sent;
// the outcomes of the requests in flight are still kept.
const (
	maxBacklog      = 2048
	maxBacklogBytes = 4 << 20
)

// MaxRepeatedAfterKill is the durability bound of a crawl with the given concurrency: after a
// kill -9, at most this many requests whose answers had arrived are made again by the next run
// (robots.txt requests aside). They are the requests in flight and the answers being processed
// (at most concurrency together: a worker holds its task until its result), the outcomes in the
// scheduler's backlog (fewer than maxBacklog when the last request was sent, plus those in
// flight then), and the outcomes of the group being committed and of the group gathering behind
// it (at most commitGroupMax writes each, and gathered for at most commitWindow). Nothing else
// is repeated, and no URL is lost: an outcome and the URLs it found are committed together, so a
// lost outcome is a URL still queued.
func MaxRepeatedAfterKill(concurrency int) int { return 2*concurrency + maxBacklog + 2*commitGroupMax }

// writeBytes is about how much memory w holds: its documents' text and its links and new URLs.
func writeBytes(w write) int {
	n := 0
	for _, d := range w.batch.Documents {
		n += textBytes(d)
	}
	for _, l := range w.batch.Links {
		n += len(l.To) + len(l.Anchor)
	}
	for _, u := range w.batch.New {
		n += len(u.URL) + len(u.Origin)
	}
	return n
}

// textBytes is the size of a document's text, title and headings.
func textBytes(d store.Document) int { return len(d.Title) + len(d.Text) + len(d.Headings) }

// writer commits writes in groups gathered for at most window (commitWindow in a crawl), fenced
// as owner (commitFenced), and acknowledges each group in order; a group that names WARC records
// is committed only after archive.Sync. A receive from flush ends the gathering at once (the
// crawl waits for nothing else: crawl.flushIfIdle); one sent while no group gathers ends the
// next one's. It stops when in is closed, after committing everything it received. The commit
// window is wall-clock time (it batches disk writes); it decides no policy.
func writer(ctx context.Context, st store.Queue, owner string, archive Archive, window time.Duration, in <-chan write, flush <-chan struct{}, out chan<- ack) {
	defer close(out)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for w := range in {
		group := []write{w}
		urgent := w.urgent
		news := len(w.batch.New)
		timer.Reset(window)
	gather:
		for len(group) < commitGroupMax && news < commitGroupMaxNew {
			if urgent {
				// Take what is already queued, then commit at once.
				select {
				case w, ok := <-in:
					if !ok {
						break gather
					}
					group = append(group, w)
					news += len(w.batch.New)
					continue
				default:
					break gather
				}
			}
			select {
			case w, ok := <-in:
				if !ok {
					break gather
				}
				group = append(group, w)
				news += len(w.batch.New)
				urgent = urgent || w.urgent
			case <-timer.C:
				break gather
			case <-flush:
				break gather
			}
		}
		timer.Stop()
		out <- commitGroup(ctx, st, owner, archive, group)
	}
}

func commitGroup(ctx context.Context, st store.Queue, owner string, archive Archive, group []write) ack {
	b := groupBatch(group)
	var a ack
	archived := false
	for _, w := range group {
		archived = archived || w.archived
		a.origins = append(a.origins, w.origin)
		a.overflow = append(a.overflow, w.overflow...)
	}
	a.docs = len(b.Documents)
	for _, d := range b.Documents {
		a.docBytes += textBytes(d)
	}
	a.newURLs = len(b.New)
	if archived {
		// The store names only durable WARC records (issue 13): a failed sync commits nothing.
		if err := archive.Sync(); err != nil {
			a.err = fmt.Errorf("crawl: archive: sync the WARC records of %d outcomes: %w", len(group), err)
			return a
		}
	}
	if !b.Empty() {
		added, lost, err := commitFenced(ctx, st, b, owner)
		a.added, a.lost = added, lost
		if err != nil {
			a.err = fmt.Errorf("crawl: save %d outcomes: %w", len(group), err)
		}
	}
	return a
}

// groupBatch is the batch of a group's writes, in order: each list allocated once at its size
// (issue 26: grown by appends, the lists of a group of 512 outcomes were copied about ten times
// over, 5% of what a crawl allocated).
func groupBatch(group []write) store.Batch {
	return store.Batch{
		New:       concatOf(group, func(w *write) []store.NewURL { return w.batch.New }),
		Updates:   concatOf(group, func(w *write) []store.URL { return w.batch.Updates }),
		Origins:   concatOf(group, func(w *write) []store.Origin { return w.batch.Origins }),
		Documents: concatOf(group, func(w *write) []store.Document { return w.batch.Documents }),
		Links:     concatOf(group, func(w *write) []store.Link { return w.batch.Links }),
	}
}

// concatOf concatenates the list that list picks of each write, in one allocation (nil when all
// are empty, as appending them to nil gives).
func concatOf[T any](group []write, list func(*write) []T) []T {
	n := 0
	for i := range group {
		n += len(list(&group[i]))
	}
	if n == 0 {
		return nil
	}
	out := make([]T, 0, n)
	for i := range group {
		out = append(out, list(&group[i])...)
	}
	return out
}
