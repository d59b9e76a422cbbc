package main

import (
	"github.com/fractle/mandelbot/robotstxt"
)

// Workload is the corpus turned into the exact inputs every library gets,
// prepared before anything is timed so that no library pays for URL
// parsing or string conversion the others do not.
//
// A Workload is not modified after newWorkload returns.
type Workload struct {
	// Sites are the corpus sites that have at least one usable URL, in
	// corpus order. Their URLs are numbered consecutively across sites.
	Sites []Site
	// URLs is the number of usable URLs over all Sites.
	URLs int
	// Rejected are the URLs robotstxt.PathAndQuery refused, in corpus
	// order; no library sees them.
	Rejected []RejectedURL
	// Parse holds every robots file of the corpus, with or without URLs,
	// for the parse-only pass.
	Parse []Site
	// ParseBytes is the total size of the robots files in Parse.
	ParseBytes int
}

// Site is one site's robots.txt and its URLs, in the forms the libraries
// take.
type Site struct {
	Name   string
	Robots []byte
	// RobotsText is Robots as a string, converted once for the libraries
	// whose API takes a string.
	RobotsText string
	// Paths[i] is the path?query of URLs[i] as robotstxt.PathAndQuery
	// extracts it: the string the parse-once libraries match.
	Paths []string
	// URLs are the absolute URLs, for the libraries that take whole URLs.
	URLs []string
	// Root is https://NAME/, the URL the parse pass asks libraries that
	// cannot parse without a URL.
	Root string
	// First is the index of URLs[0] in a verdict slice of length
	// Workload.URLs.
	First int
}

// RejectedURL is a corpus URL no library is asked about, with the reason.
type RejectedURL struct {
	Site string
	URL  string
	Err  error
}

// newWorkload extracts the path and query of every corpus URL with
// robotstxt.PathAndQuery, the function the crawler itself uses, so that
// every library matches the same strings.
func newWorkload(c *Corpus) *Workload {
	w := &Workload{}
	for _, cs := range c.Sites {
		s := Site{
			Name:       cs.Name,
			Robots:     cs.Robots,
			RobotsText: string(cs.Robots),
			Root:       "https://" + cs.Name + "/",
		}
		w.Parse = append(w.Parse, s)
		w.ParseBytes += len(cs.Robots)
		for _, u := range cs.URLs {
			p, err := robotstxt.PathAndQuery(u)
			if err != nil {
				w.Rejected = append(w.Rejected, RejectedURL{Site: cs.Name, URL: u, Err: err})
				continue
			}
			s.Paths = append(s.Paths, p)
			s.URLs = append(s.URLs, u)
		}
		if len(s.URLs) == 0 {
			continue
		}
		s.First = w.URLs
		w.URLs += len(s.URLs)
		w.Sites = append(w.Sites, s)
	}
	return w
}

// robotsBytes is the total size of the robots files of the URL pass.
func (w *Workload) robotsBytes() int {
	n := 0
	for _, s := range w.Sites {
		n += len(s.Robots)
	}
	return n
}
