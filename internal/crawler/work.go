package crawler

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
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
	via    []string // the URLs that redirected to url in this run (Page.Redirects); nil: none known
}

// result is what a worker hands back to the scheduler. A page answer that is processed
// (extraction, links, document) is handed back twice, in order on one channel (issue 8): first an
// early report (early: only task and outcome are set) as soon as the answer is read, so that the
// origin's next request may leave, then the full result (answered).
type result struct {
	task     task
	early    bool            // the early report of an answer whose processing goes on
	answered bool            // the early report of this task preceded this result
	decision robots.Decision // robots tasks
	url      store.URL       // page tasks: the URL's new record
	outcome  frontier.Outcome
	found    []store.NewURL  // links, redirect targets, sitemap entries
	retry    bool            // no answer; try again later in this run
	canceled bool            // the run is stopping; the URL stays queued
	bad      int             // discovered references that could not be parsed
	doc      *store.Document // index content of a fetched page; nil when there is none
	links    []store.Link
	page     *Document // for Options.OnDocument; nil when it is not set
	archived bool      // the outcome names a WARC record, to be synced before it is committed
	fatal    error     // archiving failed: the crawl stops and the outcome is not saved
	// refused is why this process refused to connect (a non-public address without permission,
	// issue 27): a local policy, not an answer. Nothing is written: the URL (or robots.txt) stays
	// due in the store, and the origin is left alone for the rest of the run.
	refused string
	// noAnswer is the network error of a request that got no answer at all (robots.txt or
	// page): the run gives up when nothing ever answers (Options.GiveUpAfter).
	noAnswer error
}

// worker performs tasks; it is shared by the worker goroutines and holds only immutable state
// and sitemaps, the semaphore of the sitemaps fetched at once (Options.MaxSitemapsInFlight).
type worker struct {
	opts     Options
	scope    *scope
	parser   *urlnorm.Parser
	sitemaps chan struct{}
	// buffers holds *extract.Buffers between pages (issue 26: an extraction's text buffers
	// and links grown from nothing on every page were a third of what it allocated); about
	// one per page being extracted at once, each bounded (extract.MaxKeptBufferBytes).
	buffers sync.Pool
}

// do performs t and returns its result; a page task whose answer is processed hands its early
// report (see result) to report first, on the worker goroutine.
func (w *worker) do(ctx context.Context, t task, report func(result)) result {
	if t.robots {
		var g robots.Getter = w.opts.Fetcher
		ag := &archivingGetter{w: w}
		if w.opts.Archive != nil {
			g = ag
		}
		d := robots.Fetch(ctx, g, t.origin+"/robots.txt", robots.FetchOptions{
			Header: t.header, MaxBytes: w.opts.Frontier.Robots.MaxBytes, Now: w.opts.Clock.Now,
		})
		if ag.err != nil {
			return result{task: t, fatal: ag.err}
		}
		if d.Kind == robots.KindUnreachable && ctx.Err() != nil {
			return result{task: t, canceled: true} // the run is stopping: not a failure (rule 21)
		}
		if d.Kind == robots.KindUnreachable && fetch.Classify(d.Err) == fetch.KindPrivateAddress {
			return result{task: t, refused: refusedReason(d.Err)} // our policy, not the origin's answer
		}
		d.WARC = ag.last
		res := result{task: t, decision: d, archived: !ag.last.IsZero()}
		if d.Kind == robots.KindUnreachable && d.Status == 0 {
			res.noAnswer = d.Err
		}
		return res
	}
	res := w.page(ctx, t, report)
	if w.opts.OnFailure != nil {
		if f, ok := failureOf(res, w.opts.Clock.Now()); ok {
			w.opts.OnFailure(f)
		}
	}
	return res
}

// page performs a page task in stages, each with one result: fetch (the answer, or none),
// archive (its WARC record), then one of the rules that decide what the answer means (no answer:
// failed; 503 or 429: paused; 304: notModified) or, for any other answer, the early report,
// extract and the report to the callbacks (deliver).
func (w *worker) page(ctx context.Context, t task, report func(result)) result {
	a := w.fetch(ctx, t.url)
	// The body is charged to the fetcher's memory budget until released; everything kept from it
	// (title, text, links) is copied out, and the callbacks have returned, before page returns.
	// Release is nil-safe.
	defer a.resp.Release()
	if a.err != nil {
		return w.failed(ctx, t, a)
	}
	ref, err := w.archive(t.url.URL, a.resp, t.url)
	if err != nil {
		return result{task: t, url: t.url, fatal: err}
	}
	var res result
	switch {
	case a.resp.Status == http.StatusServiceUnavailable || a.resp.Status == http.StatusTooManyRequests:
		res = w.paused(t, a, ref)
	case a.resp.Status == http.StatusNotModified && a.conditional:
		res = w.notModified(t, a, ref)
	default:
		if t.url.Kind == store.KindPage {
			// Issue 8: the answer is read (a 503 or 429 is paused above: it pauses the origin
			// first, rule 23); the origin's next request need not wait for this page's
			// processing. The body stays charged to the fetcher's memory budget until released.
			report(result{task: t, early: true, outcome: a.outcome()})
		}
		res = w.deliver(w.extract(t, a, ref), t, a.resp)
	}
	if a.unreadable != "" {
		res.url.Reason = joinReason(res.url.Reason, a.unreadable)
	}
	return res
}

// answer is what the fetch stage of a page task got.
type answer struct {
	// resp is the answer, nil when none arrived (err set); its body is nil when unreadable.
	resp *fetch.Response
	err  error // no answer (nil: resp is set)
	// conditional: the request carried the validators of the last fetch (issue 13).
	conditional bool
	sm          sitemapParse // a streamed sitemap's entries (a 2xx sitemap answer)
	now         time.Time    // when the answer (or the failure) arrived
	took        time.Duration
	// unreadable is the reason of an answer whose status arrived but whose body's coding is
	// corrupt ("" when it is not): the status still counts, the body does not.
	unreadable string
}

// outcome is the answer as the frontier sees it: how long it took and its status.
func (a answer) outcome() frontier.Outcome {
	o := frontier.Outcome{Took: a.took}
	if a.resp != nil {
		o.Status = a.resp.Status
	}
	return o
}

// fetch requests u (a sitemap streamed and parsed as it arrives, issue 9) and returns the answer.
// A body that stalled or broke off after the status counts as no answer (a network error); a
// body whose coding is corrupt keeps the status, without the body.
func (w *worker) fetch(ctx context.Context, u store.URL) answer {
	req := fetch.Request{URL: u.URL, Header: validators(u)}
	a := answer{conditional: req.Header != nil}
	if u.Kind == store.KindSitemap {
		// Issue 29: a sitemap's entries are new URLs on their way to the store, up to
		// sitemap.MaxEntries of them; only Options.MaxSitemapsInFlight sitemaps are fetched at
		// once, so that their burst stays bounded however many origins name one. The wait is
		// not the origin's time.
		select {
		case w.sitemaps <- struct{}{}:
			defer func() { <-w.sitemaps }()
		case <-ctx.Done():
			a.err = context.Cause(ctx)
			return a
		}
	}
	start := w.opts.Clock.Now() // the adaptive delay's input (issue 29): how long the origin took
	if u.Kind == store.KindSitemap {
		a.resp, a.sm, a.err = w.streamSitemap(ctx, req, u)
	} else {
		a.resp, a.err = w.opts.Fetcher.Get(ctx, req)
	}
	a.now = w.opts.Clock.Now()
	a.took = a.now.Sub(start)
	switch {
	case a.err != nil && a.resp != nil && fetch.Classify(a.err) != fetch.KindDecode:
		// The status arrived but the body stalled or broke off (issue 9): a network error,
		// retried like one and after the retries an error state, never "fetched".
		a.resp.Release()
		a.resp = nil
	case a.err != nil && a.resp != nil:
		// The status arrived but the body's coding is corrupt: the status still counts (a 503
		// still pauses the origin), the body does not (a streamed sitemap keeps the entries read
		// before the coding broke; its reason says so).
		a.resp.Body, a.resp.Truncated = nil, false
		a.unreadable = "body unreadable: " + a.err.Error()
		a.err = nil
	}
	return a
}

// streamSitemap requests the sitemap u, streamed (issue 9): it is parsed as it arrives, never
// held whole. (Its own function, so that only a sitemap's fetch moves u and its parse to the
// heap for the callback, not every page's: issue 26.)
func (w *worker) streamSitemap(ctx context.Context, req fetch.Request, u store.URL) (*fetch.Response, sitemapParse, error) {
	req.MaxDecodedBytes = MaxSitemapBytes
	var sm sitemapParse
	resp, err := w.opts.Fetcher.Stream(ctx, req, func(r *fetch.Response, body io.Reader) error {
		if r.Status >= 200 && r.Status < 300 {
			sm = w.parseSitemap(body, u)
		}
		return nil
	})
	return resp, sm, err
}

// failed is the result of a page request that got no answer: canceled (the run is stopping),
// refused (this process's policy), retried after a backoff, or given up after MaxAttempts.
func (w *worker) failed(ctx context.Context, t task, a answer) result {
	u := t.url
	res := result{task: t, outcome: a.outcome()}
	if ctx.Err() != nil {
		res.canceled, res.url = true, u
		return res
	}
	if fetch.Classify(a.err) == fetch.KindPrivateAddress {
		// Issue 27: the dialer's refusal is this process's policy, not a fetch error: no
		// attempt is counted and the URL stays queued for a run that may connect.
		res.refused, res.url = refusedReason(a.err), u
		return res
	}
	u.Attempts++
	u.Reason = fmt.Sprintf("no answer (%s): %v", fetch.Classify(a.err), a.err)
	res.noAnswer = a.err
	if u.Attempts < w.opts.MaxAttempts {
		res.retry = true
		u.NextAt = a.now.Add(w.opts.retryBackoff(u.Attempts)) // issue 29: never at once
	} else {
		u.State = store.StateError
		u.NextAt = a.now.Add(w.opts.Revisit)
	}
	res.url = u
	return res
}

// fromAnswer is the URL's record with what every answer sets: its archive record and its status.
func fromAnswer(t task, a answer, ref store.WARCRef) (store.URL, result) {
	u := t.url
	u.WARC = ref
	u.Status, u.ContentType, u.Location = a.resp.Status, a.resp.ContentType, a.resp.Location
	return u, result{task: t, outcome: a.outcome(), archived: !ref.IsZero()}
}

// paused is the pause rule (rule 23): the origin pauses and this URL is asked again as the
// probe; it stays queued, until it has refused MaxRefusals times in a row (issue 9): then it is
// given up, and another URL of the origin probes next. Attempts counts the tries without a
// usable answer, refusals and network errors alike.
func (w *worker) paused(t task, a answer, ref store.WARCRef) result {
	u, res := fromAnswer(t, a, ref)
	res.outcome.RetryAfter, res.outcome.RetryAfterOK = pause.RetryAfter(a.resp.Header.Get("Retry-After"), a.now)
	u.Attempts++
	u.State, u.Reason = store.StateQueued, fmt.Sprintf("answered %d: origin paused", a.resp.Status)
	if u.Attempts >= MaxRefusals {
		u.State, u.NextAt = store.StateError, a.now.Add(w.opts.Revisit)
		u.Reason = fmt.Sprintf("answered %d %d times in a row: given up (the origin stays paused; another URL probes it)", a.resp.Status, u.Attempts)
	}
	res.url = u
	return res
}

// notModified is the revisit rule (issue 13): the page did not change since the fetch whose
// validators were sent. Its document stays as it is in the index, with its status, robot tags
// and links; only the fetch time (and the archive record, a revisit) are new.
func (w *worker) notModified(t task, a answer, ref store.WARCRef) result {
	u, res := fromAnswer(t, a, ref)
	u.Attempts = 0
	u.State, u.FetchedAt, u.NextAt = store.StateFetched, a.now, a.now.Add(w.opts.Revisit)
	u.Status, u.ContentType, u.Location = t.url.Status, t.url.ContentType, t.url.Location
	if etag := a.resp.Header.Get("ETag"); etag != "" {
		u.ETag = etag
	}
	res.url = u
	return res
}

// extract reads any other answer: a redirect's target, a sitemap's entries, a 2xx page's
// document and links. A page's result is answered (its early report went first) and, with
// Options.OnDocument or OnPage, carries the Document for deliver.
func (w *worker) extract(t task, a answer, ref store.WARCRef) result {
	u, res := fromAnswer(t, a, ref)
	resp, now := a.resp, a.now
	res.answered = u.Kind == store.KindPage
	u.Attempts = 0
	u.State, u.FetchedAt, u.NextAt, u.Reason = store.StateFetched, now, now.Add(w.opts.Revisit), ""
	u.Indexed, u.NoIndex, u.NoFollow, u.Canonical = false, false, false, ""
	u.ETag, u.LastModified = "", ""
	if resp.Status >= 200 && resp.Status < 300 && !resp.Truncated {
		u.ETag, u.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	}
	if u.Kind == store.KindPage && (w.opts.OnDocument != nil || w.opts.OnPage != nil) {
		res.page = &Document{URL: u.URL, Depth: u.Depth, Status: resp.Status, Header: resp.Header,
			ContentType: resp.ContentType, Location: resp.Location, FetchedAt: now, Truncated: resp.Truncated}
	}
	if u.Kind == store.KindPage {
		// Until a 2xx page says otherwise, this fetch leaves nothing in the index (rule 27: a
		// page that now answers 404 or redirects leaves it).
		res.doc = &store.Document{URLID: u.ID, Header: resp.Header}
	}
	switch {
	case resp.Status >= 300 && resp.Status < 400:
		w.redirect(&res, &u, resp)
	case resp.Status >= 200 && resp.Status < 300 && u.Kind == store.KindSitemap:
		res.found, res.bad, u.Reason = a.sm.found, res.bad+a.sm.bad, a.sm.reason
	case resp.Status >= 200 && resp.Status < 300:
		w.document(&res, &u, resp, now)
	}
	if resp.Truncated {
		u.Reason = joinReason(u.Reason, fmt.Sprintf("body cut at the %s limit", limitName(resp.TruncatedBy)))
	}
	res.url = u
	return res
}

// deliver reports an extracted page to Options.OnDocument and OnPage (res.page; nil: neither is
// set), while the body is still the fetcher's, and returns res with what OnPage added (Page.Add)
// in res.found.
func (w *worker) deliver(res result, t task, resp *fetch.Response) result {
	if res.page == nil {
		return res
	}
	if w.opts.OnDocument != nil {
		w.opts.OnDocument(*res.page)
	}
	if w.opts.OnPage != nil {
		res = w.callPage(res, t, resp.Body, resp.Header)
	}
	return res
}

// refusedReason words a dialer's refusal of a non-public address for the log and the exit line.
func refusedReason(err error) string {
	return fmt.Sprintf("not connected: %v (allowed by --allow-private or --resolve)", err)
}

// validators are the conditional request header fields of a revisit of u (issue 13): the ETag
// and Last-Modified of its last 2xx answer, nil when it has none or was not fetched.
func validators(u store.URL) http.Header {
	if u.State != store.StateFetched || u.Status < 200 || u.Status > 299 || u.ETag == "" && u.LastModified == "" {
		return nil
	}
	h := make(http.Header, 2)
	if u.ETag != "" {
		h.Set("If-None-Match", u.ETag)
	}
	if u.LastModified != "" {
		h.Set("If-Modified-Since", u.LastModified)
	}
	return h
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
	res.found = append(res.found, w.newURL(target, u.Kind, u.Depth, u.Hops+1))
	u.Reason = "redirects to " + target.String()
}

// sitemapParse is what a streamed sitemap yielded.
type sitemapParse struct {
	found  []store.NewURL
	bad    int
	reason string
}

// parseSitemap reads the sitemap of u from body as it streams in (sitemap.Parse holds one entry
// at a time).
func (w *worker) parseSitemap(body io.Reader, u store.URL) (out sitemapParse) {
	var sitemaps int
	seen := map[string]bool{} // a sitemap (a bomb) may name one URL thousands of times
	r, err := sitemap.Parse(body, sitemap.Options{}, func(e sitemap.Entry) error {
		if seen[e.Loc] {
			return nil
		}
		seen[e.Loc] = true
		loc, err := w.parser.Parse(e.Loc)
		if err != nil {
			out.bad++
			return nil
		}
		if e.Kind == sitemap.Index {
			if sitemaps >= MaxChildSitemaps {
				return nil
			}
			sitemaps++
			out.found = append(out.found, w.newURL(loc, store.KindSitemap, u.Depth, 0))
			return nil
		}
		out.found = append(out.found, w.newURL(loc, store.KindPage, u.Depth+1, 0))
		return nil
	})
	out.bad += r.Skipped
	switch {
	case err != nil:
		out.reason = fmt.Sprintf("sitemap: %d entries, then %v", r.Entries, err)
	case r.Cut:
		out.reason = fmt.Sprintf("sitemap cut at its limit (%s) after %d entries", r.CutReason, r.Entries)
	default:
		out.reason = fmt.Sprintf("sitemap: %d entries", r.Entries)
	}
	return out
}

// document reads a 2xx page: its robot tags (headers always, meta tags on HTML only, rules 24
// and 25), its title and text for the index, and, unless the tags say nofollow, its links. The
// restricting tags and robotstag's notes (ignored directives, limits cut) go into the reason.
func (w *worker) document(res *result, u *store.URL, resp *fetch.Response, now time.Time) {
	agent := w.opts.Frontier.Agent
	tags := robotstag.FromHeader(resp.Header, agent)
	doc := store.Document{URLID: u.ID, Header: resp.Header}
	var links []extract.Link
	parsed := make(map[string]*urlnorm.URL)
	switch {
	case robotstag.IsHTML(resp.ContentType):
		buf, _ := w.buffers.Get().(*extract.Buffers)
		if buf == nil {
			buf = new(extract.Buffers)
		}
		page, err := extract.HTML(resp.Body, u.URL, resp.Header.Get("Content-Type"), extract.Options{NewResolver: w.resolver(parsed), Buffers: buf})
		w.buffers.Put(buf)
		if err != nil {
			u.Reason = fmt.Sprintf("not extracted: %v", err)
			res.doc = &doc
			return
		}
		if page.Truncated&extract.CapMetas != 0 {
			// The extractor kept only its first MaxMetas named metas; a limit must never drop a
			// restriction (rule 24), so robotstag reads the meta tags of the whole body itself.
			p := robotstag.Parser{Agent: agent, MaxHTMLBytes: int64(len(resp.Body)) + 1}
			m, _ := p.FromHTML(bytes.NewReader(resp.Body)) // reading a byte slice cannot fail
			tags.Merge(m)
		} else {
			metas := make([]robotstag.Meta, len(page.Metas))
			for i, m := range page.Metas {
				metas[i] = robotstag.Meta{Name: m.Name, Content: m.Content}
			}
			tags.Merge(robotstag.FromMeta(metas, agent))
		}
		doc.Title, doc.Text, doc.Headings = page.Title, page.Text, page.Headings
		u.Canonical = page.Canonical
		links = page.Links
		res.bad += page.SkippedLinks
	case resp.ContentType == "text/plain":
		doc.Text = extract.PlainText(resp.Body, resp.Header.Get("Content-Type"), extract.Options{}).Text
	}
	// Other types are indexed by their URL and the anchor text pointing at them.
	doc.Index = tags.Indexable(now)
	doc.NoSnippet, doc.UnavailableAfter = tags.NoSnippet, tags.UnavailableAfter
	u.Indexed, u.NoIndex, u.NoFollow = doc.Index, !doc.Index, tags.NoFollow
	if p := res.page; p != nil {
		p.Title, p.Text, p.Robots, p.Indexable = doc.Title, doc.Text, tags, doc.Index
		p.Links = make([]Link, len(links))
		for i, l := range links {
			p.Links[i] = Link{URL: l.URL, Anchor: l.Anchor, NoFollow: l.NoFollow || tags.NoFollow}
		}
	}
	if len(tags.Sources) > 0 {
		u.Reason = joinReason(u.Reason, "robot tags: "+tags.String()+" ("+sourceNames(tags.Sources)+")")
	}
	if len(tags.Notes) > 0 {
		// What robotstag read but ignored, and any limit it cut at, is part of why the URL is
		// indexed or not: the export and the explain page show it (issue 7). robotstag bounds
		// the notes (MaxNotes) and always keeps the first note of each limit.
		u.Reason = joinReason(u.Reason, "robot tag notes: "+strings.Join(tags.Notes, "; "))
	}
	res.doc = &doc
	if tags.NoFollow {
		return // rule 26: links of this page stay out of the frontier
	}
	res.found = slices.Grow(res.found, len(links))
	res.links = slices.Grow(res.links, len(links))
	for _, l := range links {
		if l.NoFollow {
			continue // rel=nofollow: the site asks us not to follow this one link
		}
		target := parsed[l.URL] // parsed once, by the resolver
		var err error
		if target == nil {
			target, err = w.parser.Parse(l.URL)
		}
		if err != nil {
			res.bad++
			continue
		}
		n := w.newURL(target, store.KindPage, u.Depth+1, 0)
		if w.opts.AddedOnly && n.State == store.StateQueued {
			n.State, n.Reason = store.StateOutOfScope, NotAddedReason
		}
		res.found = append(res.found, n)
		res.links = append(res.links, store.Link{FromID: u.ID, To: n.URL, Anchor: l.Anchor, Fragment: l.Fragment})
	}
}

// newURL classifies a discovered URL as the scope does, then asks Options.Filter about a page
// URL the scope keeps.
func (w *worker) newURL(u *urlnorm.URL, kind store.Kind, depth, hops int) store.NewURL {
	n := w.scope.newURL(u, kind, depth, hops)
	if w.opts.Filter != nil && kind == store.KindPage && n.State == store.StateQueued {
		if reason := w.opts.Filter(n.URL); reason != "" {
			n.State, n.Reason = store.StateOutOfScope, reason
		}
	}
	return n
}

// resolver returns the extractor's resolver for one document: it resolves links as browsers do
// (WHATWG), into the canonical form the frontier de-duplicates on, and keeps each parsed URL in
// parsed under its canonical string so that the link is not parsed again.
func (w *worker) resolver(parsed map[string]*urlnorm.URL) func(base string) (extract.ResolveFunc, error) {
	return func(base string) (extract.ResolveFunc, error) {
		b, err := w.parser.Parse(base)
		if err != nil {
			return nil, err
		}
		return func(href string) (string, error) {
			u, err := w.parser.Resolve(b, href)
			if err != nil {
				return "", err
			}
			s := u.String()
			parsed[s] = u
			return s, nil
		}, nil
	}
}

func sourceNames(src []robotstag.Source) string {
	names := make([]string, 0, len(src))
	for _, s := range src {
		names = append(names, s.Where+": "+s.Value)
	}
	return strings.Join(names, "; ")
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
