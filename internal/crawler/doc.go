// Package crawler is the crawl loop: it joins the frontier (what may be requested), the fetch
// client (requests), the robots package (robots.txt decisions), the extractors (links, robot tags,
// sitemaps) and the store (the crawl's truth).
//
// One scheduler goroutine owns the frontier and is the only one that decides anything; workers
// only perform requests and parse what came back, and report a page's answer as soon as it is
// read, so that the origin's next request need not wait for the parsing; one writer goroutine commits outcomes to the
// store in batches. An outcome is acted on (its links queued, its origin released) only after it
// is durable, so a crawl killed at any moment resumes from the store without losing a URL and
// without fetching one twice, apart from requests that were in flight. The scheduler sends no
// request while more than Options.MaxPendingNew newly found URLs wait for the writer, so a burst
// of sitemaps cannot queue a million URLs in memory (issue 8).
package crawler
