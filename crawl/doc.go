// Package crawl runs a polite crawl from Go code: robots.txt is fetched and obeyed before any
// other request to an origin, an origin that answers 503 or 429 is paused, requests to one
// origin are spaced by a delay, and everything the crawl learns is saved in a store, so a later
// Run with the same store resumes it. A callback receives every page answer as a [Document]:
// its URL, status, header, title, text, links with their anchor text and robot directives.
//
// It is the one place that assembles a crawl: the mandelbot command's crawl and demo use it.
//
//	stats, err := crawl.Run(ctx, crawl.Config{
//		Seeds: []string{"https://example.com/"},
//		OnDocument: func(d crawl.Document) { fmt.Println(d.Status, d.URL, d.Title) },
//	})
//
// The crawl's manners are not options: it never requests a URL robots.txt disallows for its
// Agent, never asks a paused origin before its pause ends, never sends more than PerOrigin
// requests at once to an origin, never connects to a private address unless AllowPrivate or
// Resolve says so, and always sends its own User-Agent (Header cannot replace it).
package crawl
