package main

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// pathKind is what a request of a generated web asked for, judged by its path alone.
type pathKind int

const (
	kindPage    pathKind = iota // "/" or "/p/N": a document of the generated web
	kindRobots                  // "/robots.txt"
	kindSitemap                 // "/sitemap.xml"
	kindPrivate                 // "/private/...": robots.txt disallows it; never to be requested
	kindOther                   // anything else: the generated web has no such page
)

// classify returns the kind of pathAndQuery in a web made by testweb.Generate.
func classify(pathAndQuery string) pathKind {
	switch {
	case pathAndQuery == "/" || strings.HasPrefix(pathAndQuery, "/p/"):
		return kindPage
	case pathAndQuery == testweb.RobotsPath:
		return kindRobots
	case pathAndQuery == "/sitemap.xml":
		return kindSitemap
	case strings.HasPrefix(pathAndQuery, "/private/"):
		return kindPrivate
	}
	return kindOther
}

// maxExamples bounds the example URLs a tally keeps of each problem.
const maxExamples = 5

// tally counts the requests of one program's crawl of a generated web and checks them against
// what the crawl should have asked for: every page of every origin once, nothing under
// /private/, each origin's robots.txt before its pages. The zero value is an empty tally.
type tally struct {
	Pages, Robots, Sitemaps, Private, Other int
	Duplicates                              int // requests for a key and path already requested
	RepeatedPages                           int // the Duplicates that are pages
	NonOK                                   int // answers other than 200 (or no answer)
	Missing                                 int // pages of the web never requested
	// BeforeRobots counts requests that broke rule 20: a page before its origin's robots.txt.
	BeforeRobots int

	// Up to maxExamples "key path" examples of each problem.
	PrivateSeen, OtherSeen, DuplicateSeen, RepeatedPageSeen, NonOKSeen, MissingSeen, BeforeRobotsSeen []string
}

// DistinctPages is the number of different pages requested.
func (t tally) DistinctPages() int { return t.Pages - t.RepeatedPages }

// Total is every request counted.
func (t tally) Total() int { return t.Pages + t.Robots + t.Sitemaps + t.Private + t.Other }

// OK reports whether the crawl asked for exactly what it should have.
func (t tally) OK() bool {
	return t.Private == 0 && t.Other == 0 && t.Duplicates == 0 && t.NonOK == 0 && t.Missing == 0 && t.BeforeRobots == 0
}

// recorder tallies the requests of one program as the web receives them
// (testweb.Options.OnRequest), so that a crawl of a million pages needs no request log: it
// keeps one map entry per distinct request and, if asked, the URLs in arrival order (for the
// ceiling to replay). It is safe for concurrent use.
//
// Rule 20 is checked as the requests arrive, which is what testweb's Web.BeforeRobots does
// with the log for a web without robots.txt redirects (a generated web has none): an
// origin's robots.txt request answered 2xx, 304 or 4xx other than 429 settles the origin, and
// any other request to an unsettled origin is reported. A robots.txt redirect settles
// nothing here, so the check errs on the strict side.
type recorder struct {
	mu       sync.Mutex
	t        tally
	seen     map[string]struct{} // "key path"
	settled  map[string]bool     // keys whose robots.txt decision is known
	keepURLs bool
	urls     []string
	last     time.Time // when the last request arrived; zero before the first
}

// newRecorder returns an empty recorder; with keepURLs it also keeps every request's URL.
func newRecorder(keepURLs bool) *recorder {
	return &recorder{seen: make(map[string]struct{}), settled: make(map[string]bool), keepURLs: keepURLs}
}

// add counts one request.
func (rec *recorder) add(r testweb.Request) {
	note := func(list *[]string) {
		if len(*list) < maxExamples {
			*list = append(*list, r.Key+" "+r.Path)
		}
	}
	now := time.Now()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.last = now
	t := &rec.t
	if rec.keepURLs {
		rec.urls = append(rec.urls, "http://"+r.Host+r.Path) // generated sites serve plain HTTP
	}
	kind := classify(r.Path)
	id := r.Key + " " + r.Path
	if _, dup := rec.seen[id]; dup {
		t.Duplicates++
		if kind == kindPage {
			t.RepeatedPages++
			note(&t.RepeatedPageSeen)
		}
		note(&t.DuplicateSeen)
	} else {
		rec.seen[id] = struct{}{}
	}
	if r.Status != 200 {
		t.NonOK++
		note(&t.NonOKSeen)
	}
	if kind == kindRobots {
		if r.Action == testweb.Serve && settles(r.Status) {
			rec.settled[r.Key] = true
		}
	} else if !rec.settled[r.Key] {
		t.BeforeRobots++
		note(&t.BeforeRobotsSeen)
	}
	switch kind {
	case kindPage:
		t.Pages++
	case kindRobots:
		t.Robots++
	case kindSitemap:
		t.Sitemaps++
	case kindPrivate:
		t.Private++
		note(&t.PrivateSeen)
	default:
		t.Other++
		note(&t.OtherSeen)
	}
}

// settles reports whether a robots.txt answer with this status lets crawling start
// (docs/robots-rules.md rule 21: 2xx, 304, 4xx other than 429).
func settles(status int) bool {
	return status/100 == 2 || status == 304 || (status/100 == 4 && status != 429)
}

// lastRequest returns when the last request counted arrived (zero if none has).
func (rec *recorder) lastRequest() time.Time {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.last
}

// requests returns the number of requests counted so far.
func (rec *recorder) requests() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.t.Total()
}

// finish returns the tally, with the pages of a web of the given site keys, each with
// pagesPerOrigin documents ("/" and "/p/1" to "/p/N-1"), that were never requested, and the
// URLs kept. Call it once the program is done.
func (rec *recorder) finish(keys []string, pagesPerOrigin int) (tally, []string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	t := rec.t
	for _, k := range keys {
		for n := range pagesPerOrigin {
			path := "/"
			if n > 0 {
				path = "/p/" + strconv.Itoa(n)
			}
			if _, ok := rec.seen[k+" "+path]; !ok {
				t.Missing++
				if len(t.MissingSeen) < maxExamples {
					t.MissingSeen = append(t.MissingSeen, k+" "+path)
				}
			}
		}
	}
	return t, rec.urls
}

// tallyRequests counts a logged crawl of a web of the given site keys, each with
// pagesPerOrigin documents, as a recorder does.
func tallyRequests(reqs []testweb.Request, keys []string, pagesPerOrigin int) tally {
	rec := newRecorder(false)
	for _, r := range reqs {
		rec.add(r)
	}
	t, _ := rec.finish(keys, pagesPerOrigin)
	return t
}

// switchboard passes each request the web receives to the current recorder, so one web
// serves several programs in turn, each counted apart. Safe for concurrent use.
type switchboard struct {
	cur atomic.Pointer[recorder]
}

// onRequest is the web's Options.OnRequest.
func (s *switchboard) onRequest(r testweb.Request) {
	if rec := s.cur.Load(); rec != nil {
		rec.add(r)
	}
}

// start makes rec the recorder of the requests that follow.
func (s *switchboard) start(rec *recorder) { s.cur.Store(rec) }
