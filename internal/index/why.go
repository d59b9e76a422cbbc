package index

import (
	"fmt"
	"strings"
	"time"
)

// Facts are what the crawl recorded about a URL, from which Why explains its place in the index.
type Facts struct {
	State       string // store.State
	Reason      string
	Status      int
	ContentType string
	FetchedAt   time.Time
	Inlinks     int
	Indexed     bool // a searchable document
	LinkOnly    bool // a searchable link-only entry
	NoIndex     bool // robot tags kept it out
}

// Why says in one line why a URL is in the index, or why it is not, from the recorded decisions.
func Why(f Facts) string {
	links := ""
	switch f.Inlinks {
	case 0:
	case 1:
		links = "; linked from 1 page"
	default:
		links = fmt.Sprintf("; linked from %d pages", f.Inlinks)
	}
	switch {
	case f.Indexed:
		ct := ""
		if f.ContentType != "" {
			ct = ", " + f.ContentType
		}
		return fmt.Sprintf("Indexed: fetched %s (%d%s)%s", f.FetchedAt.UTC().Format("2006-01-02 15:04"), f.Status, ct, links)
	case f.LinkOnly:
		return "Not crawled: " + notCrawled(f) + "; known from other pages' links" + links
	case f.NoIndex:
		return fmt.Sprintf("Not in the index: fetched %s, but its robot tags say %s", f.FetchedAt.UTC().Format("2006-01-02 15:04"), orDefault(f.Reason, "noindex"))
	case !f.FetchedAt.IsZero() && (f.Status < 200 || f.Status > 299):
		return fmt.Sprintf("Not in the index: fetched, answered %d%s", f.Status, prefixed(f.Reason))
	case !f.FetchedAt.IsZero():
		return "Not in the index: fetched, nothing to index" + prefixed(f.Reason)
	case f.State == "":
		return "Not in the index: the crawl has never seen this URL"
	}
	return "Not in the index: " + notCrawled(f) + ", and no page links to it"
}

func notCrawled(f Facts) string {
	switch f.State {
	case "robots_disallowed":
		return "blocked by robots.txt, " + strings.Replace(orDefault(f.Reason, "a Disallow rule"), "(robots.txt ", "(", 1)
	case "robots_unreachable":
		return "its site's robots.txt could not be read" + prefixed(f.Reason)
	case "paused":
		return "its site asked us to pause" + prefixed(f.Reason)
	case "out_of_scope":
		return "outside the crawl's scope" + prefixed(f.Reason)
	case "error":
		return "the request failed" + prefixed(f.Reason)
	}
	return "not crawled yet"
}

func prefixed(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
