package main

import (
	"strconv"
	"strings"

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

// tally counts the requests of one crawl of a generated web and checks them against what the
// crawl should have asked for: every page of every origin once, each origin's robots.txt and
// sitemap, nothing under /private/. The zero value is an empty tally.
type tally struct {
	Pages, Robots, Sitemaps, Private, Other int
	Duplicates                              int // requests for a key and path already requested
	NonOK                                   int // answers other than 200 (or no answer)
	Missing                                 int // pages of the web never requested

	// Up to maxExamples "key path" examples of each problem.
	PrivateSeen, OtherSeen, DuplicateSeen, NonOKSeen, MissingSeen []string
}

// Total is every request counted.
func (t tally) Total() int { return t.Pages + t.Robots + t.Sitemaps + t.Private + t.Other }

// OK reports whether the crawl asked for exactly what it should have.
func (t tally) OK() bool {
	return t.Private == 0 && t.Other == 0 && t.Duplicates == 0 && t.NonOK == 0 && t.Missing == 0
}

// tallyRequests counts reqs, the request log of one crawl of a web of the given site keys,
// each with pagesPerOrigin documents ("/" and "/p/1" to "/p/N-1").
func tallyRequests(reqs []testweb.Request, keys []string, pagesPerOrigin int) tally {
	var t tally
	note := func(list *[]string, r testweb.Request) {
		if len(*list) < maxExamples {
			*list = append(*list, r.Key+" "+r.Path)
		}
	}
	seen := make(map[string]bool, len(reqs))
	for _, r := range reqs {
		id := r.Key + " " + r.Path
		if seen[id] {
			t.Duplicates++
			note(&t.DuplicateSeen, r)
		}
		seen[id] = true
		if r.Status != 200 {
			t.NonOK++
			note(&t.NonOKSeen, r)
		}
		switch classify(r.Path) {
		case kindPage:
			t.Pages++
		case kindRobots:
			t.Robots++
		case kindSitemap:
			t.Sitemaps++
		case kindPrivate:
			t.Private++
			note(&t.PrivateSeen, r)
		default:
			t.Other++
			note(&t.OtherSeen, r)
		}
	}
	for _, k := range keys {
		for n := range pagesPerOrigin {
			path := "/"
			if n > 0 {
				path = "/p/" + strconv.Itoa(n)
			}
			if !seen[k+" "+path] {
				t.Missing++
				if len(t.MissingSeen) < maxExamples {
					t.MissingSeen = append(t.MissingSeen, k+" "+path)
				}
			}
		}
	}
	return t
}

// requestURLs returns the absolute URLs of reqs in log order, as a plain client asks for them
// again: "http://" + Host header + path. Generated sites serve plain HTTP.
func requestURLs(reqs []testweb.Request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = "http://" + r.Host + r.Path
	}
	return out
}
