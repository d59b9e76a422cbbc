package robotstag

import (
	"net/http"
	"slices"
)

// HeaderName is the HTTP response header that carries robot tags.
const HeaderName = "X-Robots-Tag"

// FromHeader returns the directives that the X-Robots-Tag headers in h
// give agent. It is Parser{Agent: agent}.FromHeader(h).
func FromHeader(h http.Header, agent string) Directives {
	return Parser{Agent: agent}.FromHeader(h)
}

// FromHeader returns the directives the X-Robots-Tag headers of one
// response give p.Agent, whatever the response's content type
// (docs/robots-rules.md rule 25, seed 002).
//
// Every header line counts, and so does every value of a line that a
// server or proxy combined with commas. A value is a comma-separated
// directive list; "agent:" before an element scopes it and the elements
// after it, up to the next scope, to that agent. Unscoped elements apply to
// every agent; elements scoped to another agent are ignored. A colon does
// not always mean a scope: in "unavailable_after: 25 Jun 2010 15:00:00 PST"
// the text before the colon is a directive name.
//
// Keys are matched with ASCII case folding, so a map built by hand with
// "x-robots-tag" keys works too; the canonical key is read first, then any
// other spellings in byte order. The first MaxTags values are read in
// full; later ones only for noindex, none and nofollow, so that the limit
// never drops a restriction (rule 24), and a note says so.
// FromHeader does not modify or retain h.
func (p Parser) FromHeader(h http.Header) Directives {
	var keys []string
	for k := range h {
		if k != HeaderName && equalFold(k, HeaderName) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if _, ok := h[HeaderName]; ok {
		keys = slices.Insert(keys, 0, HeaderName)
	}

	r := reader{p: p}
	for _, k := range keys {
		for _, v := range h[k] {
			r.tag(HeaderName, HeaderName+" values", v, true)
		}
	}
	return r.result()
}
