package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/warc"
)

// Archive is the WARC stage of a crawl (issue 13); *warc.Writer implements it. A worker writes
// each answer it received (pages, sitemaps, robots.txt) with WriteExchange, with the URL's
// identity, and the record's place goes into the URL's outcome (store.URL.WARC, or the origin's
// robots record). The writer goroutine calls Sync before it commits a group holding such
// outcomes, so the store never names a record that is not durable. An error from either stops
// the crawl, like a store error; the outcome whose record failed is not saved (its URL stays
// queued). Implementations must be safe for concurrent use.
type Archive interface {
	WriteExchange(ex warc.Exchange) (warc.ExchangeRefs, error)
	Sync() error
}

// ErrNotCaptured reports an answer that arrived without its wire bytes while the crawl archives:
// the Fetcher was not created with fetch.Options.Capture.
var ErrNotCaptured = errors.New("crawl: archive: the fetcher did not capture the exchange (fetch.Options.Capture is off)")

// archive writes the exchange behind resp, an answer for target, to the archive and returns the
// place of its response record, or of a revisit record for a 304. prev is what the store held of
// the URL before this answer (zero for robots.txt): the record a revisit refers to. Without an
// archive it does nothing.
func (w *worker) archive(target string, resp *fetch.Response, prev store.URL) (store.WARCRef, error) {
	if w.opts.Archive == nil || resp == nil {
		return store.WARCRef{}, nil
	}
	cp := resp.Capture
	if cp == nil {
		return store.WARCRef{}, fmt.Errorf("%w: %s", ErrNotCaptured, target)
	}
	ex := warc.Exchange{TargetURI: target, Date: resp.Started, IP: cp.IP, Request: cp.Request, Response: cp.Response}
	if cp.Truncated {
		ex.Truncated = warc.TruncatedLength
	}
	if resp.Status == http.StatusNotModified {
		ex.Revisit = &warc.Revisit{Profile: warc.ProfileServerNotModified, RefersTo: prev.WARC.RecordID,
			RefersToDate: prev.FetchedAt}
	}
	refs, err := w.opts.Archive.WriteExchange(ex)
	if err != nil {
		return store.WARCRef{}, fmt.Errorf("crawl: archive %s: %w", target, err)
	}
	return store.WARCRef{File: refs.Response.File, Offset: refs.Response.Offset, RecordID: refs.Response.RecordID}, nil
}

// archivingGetter archives every answer robots.Fetch receives (a robots.txt and the redirects
// to it) and remembers the record of the last one, the answer that counted.
type archivingGetter struct {
	w    *worker
	last store.WARCRef
	err  error // the first archive error; the fetch is then void
}

func (g *archivingGetter) Get(ctx context.Context, req fetch.Request) (*fetch.Response, error) {
	resp, err := g.w.opts.Fetcher.Get(ctx, req)
	if resp != nil && g.err == nil {
		g.last, g.err = g.w.archive(req.URL, resp, store.URL{})
	}
	return resp, err
}
