package crawler

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/extract"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstag"
	"github.com/fractle/mandelbot/sitemap"
	"github.com/fractle/mandelbot/urlnorm"
)

// task is one request for a worker: a robots.txt (robots set) or a URL.
type task struct {
	robots bool
	origin string
	header http.Header
	url    store.URL
}

// result is what a worker hands back to the scheduler.
type result struct {
	task     task
	decision robots.Decision // robots tasks
	url      store.URL       // page tasks: the URL's new record
	outcome  frontier.Outcome
	found    []store.NewURL // links, redirect targets, sitemap entries
	retry    bool           // no answer; try again later in this run
	canceled bool           // the run is stopping; the URL stays queued
	bad      int            // discovered references that could not be parsed
}

// worker performs tasks; it is shared by the worker goroutines and holds only immutable state.
type worker struct {
	opts   Options
	scope  *scope
	parser *urlnorm.Parser
}

func (w *worker) do(ctx context.Context, t task) result {
	if t.robots {
		d := robots.Fetch(ctx, w.opts.Fetcher, t.origin+"/robots.txt", robots.FetchOptions{
			Header: t.header, MaxBytes: w.opts.Frontier.Robots.MaxBytes, Now: w.opts.Clock.Now,
		})
		return result{task: t, decision: d}
	}
	return w.page(ctx, t)
}

func (w *worker) page(ctx context.Context, t task) result {
	u := t.url
	req := fetch.Request{URL: u.URL}
	if u.Kind == store.KindSitemap {
		req.MaxDecodedBytes = MaxSitemapBytes
	}
	resp, err := w.opts.Fetcher.Get(ctx, req)
	now := w.opts.Clock.Now()
	res := result{task: t}
	if err != nil {
		if ctx.Err() != nil {
			res.canceled = true
			res.url = u
			return res
		}
		u.Attempts++
		u.Reason = fmt.Sprintf("no answer (%s): %v", fetch.Classify(err), err)
		if u.Attempts < w.opts.MaxAttempts && fetch.Classify(err) != fetch.KindPrivateAddress {
			res.retry = true
		} else {
			u.State = store.StateError
			u.NextAt = now.Add(w.opts.Revisit)
		}
		res.url = u
		return res
	}
	u.Attempts = 0
	u.Status, u.ContentType, u.Location = resp.Status, resp.ContentType, resp.Location
	res.outcome = frontier.Outcome{Status: resp.Status}
	if resp.Status == http.StatusServiceUnavailable || resp.Status == http.StatusTooManyRequests {
		// rule 23: the origin pauses and this URL is asked again as the probe; it stays queued.
		res.outcome.RetryAfter, res.outcome.RetryAfterOK = pause.RetryAfter(resp.Header.Get("Retry-After"), now)
		u.State, u.Reason = store.StateQueued, fmt.Sprintf("answered %d: origin paused", resp.Status)
		res.url = u
		return res
	}
	u.State, u.FetchedAt, u.NextAt, u.Reason = store.StateFetched, now, now.Add(w.opts.Revisit), ""
	switch {
	case resp.Status >= 300 && resp.Status < 400:
		w.redirect(&res, &u, resp)
	case resp.Status >= 200 && resp.Status < 300 && u.Kind == store.KindSitemap:
		w.sitemap(&res, &u, resp)
	case resp.Status >= 200 && resp.Status < 300:
		w.document(&res, &u, resp, now)
	}
	if resp.Truncated {
		u.Reason = joinReason(u.Reason, fmt.Sprintf("body cut at the %s limit", limitName(resp.TruncatedBy)))
	}
	res.url = u
	return res
}

func (w *worker) redirect(res *result, u *store.URL, resp *fetch.Response) {
	if resp.Location == "" {
		u.Reason = "redirect without a usable Location"
		return
	}
	if u.Hops >= MaxRedirectHops {
		u.Reason = fmt.Sprintf("redirect not followed: more than %d hops", MaxRedirectHops)
		return
	}
	target, err := w.parser.Parse(resp.Location)
	if err != nil {
		res.bad++
		u.Reason = fmt.Sprintf("redirect to an unusable URL: %v", err)
		return
	}
	// The target is a new frontier URL: the robots check and the politeness delay apply to it.
	res.found = append(res.found, w.scope.newURL(target, u.Kind, u.Depth, u.Hops+1))
	u.Reason = "redirects to " + target.String()
}

func (w *worker) sitemap(res *result, u *store.URL, resp *fetch.Response) {
	var sitemaps int
	r, err := sitemap.Parse(bytes.NewReader(resp.Body), sitemap.Options{}, func(e sitemap.Entry) error {
		loc, err := w.parser.Parse(e.Loc)
		if err != nil {
			res.bad++
			return nil
		}
		if e.Kind == sitemap.Index {
			if sitemaps >= MaxChildSitemaps {
				return nil
			}
			sitemaps++
			res.found = append(res.found, w.scope.newURL(loc, store.KindSitemap, u.Depth, 0))
			return nil
		}
		res.found = append(res.found, w.scope.newURL(loc, store.KindPage, u.Depth+1, 0))
		return nil
	})
	res.bad += r.Skipped
	switch {
	case err != nil:
		u.Reason = fmt.Sprintf("sitemap: %d entries, then %v", r.Entries, err)
	case r.Cut:
		u.Reason = fmt.Sprintf("sitemap cut at its limit (%s) after %d entries", r.CutReason, r.Entries)
	default:
		u.Reason = fmt.Sprintf("sitemap: %d entries", r.Entries)
	}
}

// document reads a page's robot tags and, unless they say nofollow, its links.
func (w *worker) document(res *result, u *store.URL, resp *fetch.Response, now time.Time) {
	agent := w.opts.Frontier.Agent
	tags := robotstag.FromHeader(resp.Header, agent)
	var links []extract.Link
	if robotstag.IsHTML(resp.ContentType) {
		doc, err := extract.HTML(resp.Body, u.URL, resp.Header.Get("Content-Type"), extract.Options{})
		if err != nil {
			u.Reason = fmt.Sprintf("not extracted: %v", err)
			return
		}
		metas := make([]robotstag.Meta, len(doc.Metas))
		for i, m := range doc.Metas {
			metas[i] = robotstag.Meta{Name: m.Name, Content: m.Content}
		}
		tags.Merge(robotstag.FromMeta(metas, agent))
		links = doc.Links
		res.bad += doc.SkippedLinks
	}
	u.NoIndex, u.NoFollow = !tags.Indexable(now), tags.NoFollow
	if tags.NoFollow {
		u.Reason = joinReason(u.Reason, "robot tags say nofollow: links not followed")
		return
	}
	for _, l := range links {
		if l.NoFollow {
			continue // rel=nofollow: the site asks us not to follow this one link
		}
		target, err := w.parser.Parse(l.URL)
		if err != nil {
			res.bad++
			continue
		}
		res.found = append(res.found, w.scope.newURL(target, store.KindPage, u.Depth+1, 0))
	}
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func limitName(l fetch.Limit) string {
	if l == fetch.LimitRaw {
		return "raw size"
	}
	return "decoded size"
}
