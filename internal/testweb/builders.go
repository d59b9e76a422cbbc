package testweb

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RobotsTxt returns a robots.txt page answering 200 with body as text/plain. References
// in body are expanded: "Sitemap: {a}/sitemap.xml" names site a's real sitemap URL.
func RobotsTxt(body string) Page {
	return Page{Path: RobotsPath, Body: body, ContentType: "text/plain; charset=utf-8"}
}

// RobotsStatus returns a robots.txt page answering code with a one-line body.
func RobotsStatus(code int) Page {
	return Page{Path: RobotsPath, Status: code}
}

// Redirect returns a page at path that always answers code (301, 302, 303, 307, 308)
// with Location to: a path or a "{key}/path" reference.
func Redirect(path string, code int, to string) Page {
	return Page{Path: path, Script: []Step{{Status: code, RedirectTo: to}}}
}

// Gzipped returns p served as a gzip file (p.GzipFile), as a "sitemap.xml.gz" is.
func Gzipped(p Page) Page {
	p.GzipFile = true
	return p
}

// RetryAfterSeconds returns a header "Retry-After: n" for Step.Header.
func RetryAfterSeconds(n int) http.Header {
	return http.Header{"Retry-After": {strconv.Itoa(n)}}
}

// RetryAfterDate returns a header "Retry-After: <t as HTTP-date>" (http.TimeFormat) for
// Step.Header. For a date relative to the web's clock at request time, use
// Step.RetryDateIn instead.
func RetryAfterDate(t time.Time) http.Header {
	return http.Header{"Retry-After": {t.UTC().Format(http.TimeFormat)}}
}

// XRobotsTag returns a header with one X-Robots-Tag field per value, for Page.Header.
func XRobotsTag(values ...string) http.Header {
	return http.Header{"X-Robots-Tag": append([]string(nil), values...)}
}

// Hop is one redirect of a chain: a request for Path on the site Key answers Status
// (0: 301 for the first hop, then alternately 302 and 301).
type Hop struct {
	Key    string
	Path   string
	Status int
}

// RedirectChain returns, by site key, the pages of a chain of len(hops) redirects:
// hops[i] redirects to hops[i+1] and the last hop to end (a path on the last hop's site
// or a "{key}/path" reference). A Location that stays on the same site is sent as a
// relative path ("/moved/2"), one that changes site as an absolute URL, as real servers
// mix both. Add the pages to a web with [AddPages].
func RedirectChain(end string, hops ...Hop) map[string][]Page {
	out := make(map[string][]Page)
	for i, h := range hops {
		to := end
		if i+1 < len(hops) {
			next := hops[i+1]
			to = next.Path
			if next.Key != h.Key {
				to = "{" + next.Key + "}" + next.Path
			}
		} else if k := refKey(end); k == h.Key {
			to = strings.TrimPrefix(end, "{"+k+"}")
		}
		code := h.Status
		if code == 0 {
			code = http.StatusMovedPermanently
			if i%2 == 1 {
				code = http.StatusFound
			}
		}
		out[h.Key] = append(out[h.Key], Redirect(h.Path, code, to))
	}
	return out
}

// AddPages returns a copy of sites with pages added to the sites named by the map's
// keys; a page at "/robots.txt" becomes the site's Robots. The input is not modified.
// It panics when a key names none of the sites (a scenario bug).
func AddPages(sites []Site, pages map[string][]Page) []Site {
	out := make([]Site, len(sites))
	copy(out, sites)
	for key, ps := range pages {
		i := indexOfSite(out, key)
		if i < 0 {
			panic(fmt.Sprintf("testweb: AddPages: no site with key %q", key))
		}
		s := &out[i]
		s.Pages = append(s.Pages[:len(s.Pages):len(s.Pages)], ps...)
		for j := range s.Pages {
			if s.Pages[j].Path == RobotsPath {
				robots := s.Pages[j]
				s.Robots = &robots
				s.Pages = append(s.Pages[:j:j], s.Pages[j+1:]...)
				break
			}
		}
	}
	return out
}

func indexOfSite(sites []Site, key string) int {
	for i := range sites {
		if sites[i].Key == key {
			return i
		}
	}
	return -1
}

// SitemapXML returns a sitemaps.org <urlset> at path listing locs (URLs or "{key}/path"
// references).
func SitemapXML(path string, locs ...string) Page {
	return sitemapXML(path, "urlset", "url", locs)
}

// SitemapIndex returns a sitemaps.org <sitemapindex> at path listing sitemaps.
func SitemapIndex(path string, sitemaps ...string) Page {
	return sitemapXML(path, "sitemapindex", "sitemap", sitemaps)
}

func sitemapXML(path, root, elem string, locs []string) Page {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<` + root + ` xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		b.WriteString("  <" + elem + "><loc>" + html.EscapeString(l) + "</loc></" + elem + ">\n")
	}
	b.WriteString("</" + root + ">\n")
	return Page{Path: path, Body: b.String(), ContentType: "application/xml; charset=utf-8"}
}

// SitemapText returns a text sitemap at path: one URL a line.
func SitemapText(path string, locs ...string) Page {
	return Page{Path: path, Body: strings.Join(locs, "\n") + "\n", ContentType: "text/plain; charset=utf-8"}
}

// RobotsParseLimit is the number of robots.txt bytes a crawler must parse, 500 KiB
// (docs/robots-rules.md rule 10).
const RobotsParseLimit = 512_000

// The paths LargeRobotsTxt places around the parse limit.
const (
	// LargeRobotsEarly is disallowed by a rule at the start of the file.
	LargeRobotsEarly = "/private"
	// LargeRobotsStraddle is disallowed by a line that the limit cuts after
	// "Disallow: /stra", so a parser that keeps the cut line blocks it wrongly.
	LargeRobotsStraddle = "/straddle-limit"
	// LargeRobotsBeyond is disallowed by a line wholly past the limit.
	LargeRobotsBeyond = "/beyond-limit"
)

// largeRobotsCut is where the straddling line starts: RobotsParseLimit falls just after
// its first 15 bytes, "Disallow: /stra".
const largeRobotsCut = RobotsParseLimit - len("Disallow: /stra")

// LargeRobotsTxt returns a robots.txt of size bytes (at least RobotsParseLimit+1024)
// for rule 10: "User-agent: *" and "Disallow: /private" at the start, comment lines up
// to the limit, "Disallow: /straddle-limit" cut by the limit, "Disallow: /beyond-limit"
// after it, then comments. A conforming crawler obeys only the first rule.
func LargeRobotsTxt(size int) Page {
	size = max(size, RobotsParseLimit+1024)
	var b strings.Builder
	b.Grow(size)
	b.WriteString("User-agent: *\nDisallow: " + LargeRobotsEarly + "\n")
	fill(&b, largeRobotsCut)
	b.WriteString("Disallow: " + LargeRobotsStraddle + "\n")
	b.WriteString("Disallow: " + LargeRobotsBeyond + "\n")
	fill(&b, size)
	return RobotsTxt(b.String())
}

// fill appends comment lines (or a last blank line) until b holds exactly n bytes.
func fill(b *strings.Builder, n int) {
	const line = "# The quick brown fox keeps this robots.txt above the size limit.\n"
	for n-b.Len() >= 2*len(line) {
		b.WriteString(line)
	}
	switch rest := n - b.Len(); {
	case rest == 1:
		b.WriteString("\n")
	case rest > 1:
		b.WriteString("#" + strings.Repeat("-", rest-2) + "\n")
	}
}
