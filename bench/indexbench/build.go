package main

import (
	"context"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// crawlWriteBatchMax is how many outcomes the crawler's writer groups into one transaction at
// most (crawler.writeBatchMax).
const crawlWriteBatchMax = 256

// buildStats describe an index build.
type buildStats struct {
	Documents int // pages fetched: each committed a Document
	Indexed   int // of those, searchable (not noindex)
	Skipped   int // URLs under /private/, skipped as robots.txt disallows them
	URLs      int // URLs known at the end: fetched, skipped and link-only
	Links     int // links committed
	Batches   int // Store.Commit calls, the seeds' included

	Commit time.Duration // time spent inside Store.Commit
	Wall   time.Duration // the whole build, generating the pages included
}

// committer is the part of store.Store a build writes through.
type committer interface {
	Commit(ctx context.Context, b store.Batch) ([]store.URL, error)
}

// build crawls w into st without a network, in the crawler's order of work and with the
// crawler's batches: the seeds first, then breadth first, batch URLs per Store.Commit, each
// URL's outcome as the crawler would commit it (see web.visit), the URLs that were new
// queued behind. onDoc, if not nil, sees every committed document.
func build(ctx context.Context, st committer, w *web, batch int, now time.Time, onDoc func(store.Document)) (buildStats, error) {
	var s buildStats
	start := time.Now()
	commit := func(b store.Batch) ([]store.URL, error) {
		t := time.Now()
		added, err := st.Commit(ctx, b)
		s.Commit += time.Since(t)
		s.Batches++
		s.URLs += len(added)
		return added, err
	}
	queue, err := commit(store.Batch{New: w.seeds(now)})
	if err != nil {
		return s, fmt.Errorf("build: seeds: %w", err)
	}
	for len(queue) > 0 {
		n := min(batch, len(queue))
		var b store.Batch
		for _, u := range queue[:n] {
			f, err := w.visit(u, now)
			if err != nil {
				return s, fmt.Errorf("build: %w", err)
			}
			b.Updates = append(b.Updates, f.update)
			b.New = append(b.New, f.found...)
			b.Links = append(b.Links, f.links...)
			if f.doc == nil {
				s.Skipped++
				continue
			}
			b.Documents = append(b.Documents, *f.doc)
			s.Documents++
			if f.doc.Index {
				s.Indexed++
			}
			if onDoc != nil {
				onDoc(*f.doc)
			}
		}
		s.Links += len(b.Links)
		queue = queue[n:]
		added, err := commit(b)
		if err != nil {
			return s, fmt.Errorf("build: batch %d: %w", s.Batches, err)
		}
		queue = append(queue, added...)
	}
	s.Wall = time.Since(start)
	return s, nil
}
