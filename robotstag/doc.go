// Package robotstag turns robot meta tags and X-Robots-Tag headers into
// indexing directives for one crawler, as Mandelbot's spec defines them
// (docs/robots-rules.md rules 24-28 and seed 002).
//
// A response speaks to crawlers in two places:
//
//	X-Robots-Tag: mandelbot: noindex, nofollow             (any content type)
//	<meta name="robots" content="noindex">                  (text/html only)
//
// For applies the whole rule to a fetched response; FromHeader, FromMeta
// and FromHTML read one place each, for callers that already split the
// work (an extractor that tokenised the page hands its metas to FromMeta).
// All of them return a Directives value; Merge combines two, and the most
// restrictive combination always wins. Indexable(now) answers the question
// the indexer asks.
//
// Decisions where the spec is silent or open:
//
//   - Placement. A robots meta element counts anywhere in the document, not
//     only inside head; see Parser.FromHTML for why.
//   - Agents. A meta name or header scope names the crawler whose agent
//     token (robotstxt.AgentToken, rule 6) it has: "mandelbot/2.1" names
//     Mandelbot, "Mandelbot-Image" does not. Tokens are compared with ASCII
//     case folding only; "robots" addresses every crawler in a meta name.
//     In a header only an unscoped element addresses every crawler. There
//     is no "*" agent: robots.txt's * group (robotstxt.IsStarAgent) has no
//     counterpart in robot tags, so a meta named "*" or a "*:" scope is
//     for no crawler of ours.
//   - Limits. The tag, directive and value-length limits bound the work a
//     hostile response causes but never drop a restriction (rule 24): past
//     a limit only noindex, none and nofollow are read, and a note that is
//     never left out says where the cut was.
//   - Header scopes. "agent:" scopes the elements after it up to the next
//     scope (rule 25), so a line that a proxy combined from several header lines
//     ("noindex, otherbot: nofollow") keeps each part's meaning. The one
//     thing combining loses cannot be recovered: an unscoped value joined
//     after a scoped one ("otherbot: noindex" + "nofollow") reads as scoped.
//   - Directives. noindex, nofollow, none (= noindex + nofollow), nosnippet,
//     noarchive and unavailable_after are understood; all, index and follow
//     are accepted and change nothing, so they never override a restriction.
//     Anything else is ignored with a note. Directives are separated by
//     commas only: "noindex nofollow" is one unknown directive (noted).
//   - Dates. unavailable_after accepts ISO 8601 / RFC 3339, RFC 1123,
//     RFC 850 and asctime dates leniently; an unparsable date is ignored
//     and noted, never read as "unavailable now". Of several dates the
//     earliest counts.
//
// Nothing here fetches, caches or decides crawling: rules 27 and 28 (a
// noindex page is still re-fetched; a page blocked by robots.txt is never
// fetched, so its tags are never seen) belong to the crawler.
//
// The package uses only the standard library, golang.org/x/net/html and
// robotstxt, for the one definition of an agent token.
// It reads no environment and keeps no global state; every limit is a
// Default constant that a Parser field overrides.
package robotstag
