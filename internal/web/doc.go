// Package web is `mandelbot serve`: a small, server-rendered site over one crawl's store.
//
// Routes (see New):
//
//	GET  /              the search page: results with snippets, the link-only marker and why
//	GET  /explain?url=  why a URL is (or is not) in the index
//	GET  /api/search    the JSON of `mandelbot search --json` (index.JSONOf)
//	GET  /robots        the robots.txt tester: the form, or a check when the query has one
//	                    (robots or robots_url, urls, agent); POST /robots redirects to that link
//	                    or, for a robots.txt too long for one, checks in place
//	GET  /dashboard     the crawl at a glance: URL states and origins
//	GET  /metrics       Prometheus exposition, gathered from the store on each scrape
//	GET  /static/...    the embedded stylesheet and icon
//
// The site writes nothing to the store and requests nothing from the network but the robots.txt
// a tester check names by URL, fetched as the CLI fetches it (tester.Fetch), loopback and
// private addresses refused unless Options.TesterFetch allows them. Pages are rendered with html/template into a
// buffer before anything is written, so an error never leaves half a page; no page runs script,
// and the Content-Security-Policy forbids it. Every request has a deadline and bounded input.
package web
