// Package crawl runs a polite crawl from Go code: robots.txt is fetched and obeyed before any
// other request to an origin, an origin that answers 503 or 429 is paused, requests to one
// origin are spaced by a delay, and everything the crawl learns is saved in a store, so a later
// Run with the same store resumes it.
//
// Callbacks see what the crawl does. OnDocument receives every page answer as a [Document]:
// its URL, status, header, title, text, links with their anchor text and robot directives.
// OnPage receives the same answers as a [Page], for scraping: the body, the redirects that led
// to it, a DOM with CSS selectors ([Page.DOM], goquery, parsed only when asked), and
// [Page.Visit] to add URLs to the crawl, which take the road of the page's links (robots.txt,
// pauses, the delay, the scope, saved in the store). OnError receives each request that got no
// usable answer as a [Failure], saying whether it will be asked again.
//
// It is the one place that assembles a crawl: the mandelbot command's crawl and demo use it.
//
//	stats, err := crawl.Run(ctx, crawl.Config{
//		Seeds: []string{"https://example.com/"},
//		OnPage: func(p *crawl.Page) {
//			if dom, err := p.DOM(); err == nil {
//				fmt.Println(p.URL, dom.Find("h1").First().Text())
//			}
//		},
//	})
//
// Every Config field's zero value is its documented default (the Default constants, which the
// mandelbot command reads too). "No limit" and "no gap" have names of their own, NoLimit and
// NoDelay (the command spells them "none"), and MaxDepth's "the seeds only" is SeedsOnly. The
// settings that decide what may be fetched are saved with the crawl: a later Run on the same
// store uses the saved value of each that its Config leaves zero (see Config and Resume). The
// README's settings table lists every setting with its flag, default and constant.
//
// The crawl's manners are not options: it never requests a URL robots.txt disallows for its
// Agent, never asks a paused origin before its pause ends, never sends more than PerOrigin
// requests at once to an origin, never connects to a private address unless AllowPrivate or
// Resolve says so, and always sends its own User-Agent (Header cannot replace it). A callback
// cannot change them either: a URL it visits waits its turn like any other.
package crawl
