// Package robotstxt parses robots.txt files and decides which URLs a
// crawler may fetch, exactly as Mandelbot's spec says: the seed document
// 000 ("Mandelbot's support of robots.txt"), RFC 9309 where the seed is
// silent, and the decisions recorded in docs/robots-rules.md, sections
// A and B, whose rule numbers the documentation and tests cite.
//
// # Use
//
//	r := robotstxt.Parse(body)            // never fails
//	g := r.For("Mandelbot/1.0 (+https://...)")
//	target, err := robotstxt.PathAndQuery(rawURL)
//	if err != nil { ... }                 // never guess for a bad URL
//	v := g.Test(target)                   // v.Allowed, v.Rule.Line, v.Reason
//
// # Parsing (section A)
//
// Lines end at CR, LF or CRLF in any mix; a UTF-8 BOM is skipped, and so
// are the leading octets of a truncated one ("EF BB", "EF"). A line
// is <field>:<value>[#comment]; fields (user-agent, allow, disallow,
// sitemap, crawl-delay) are matched with ASCII case folding and blanks
// around elements are ignored. Lines without a colon and unknown or
// misspelled fields are ignored and do not change grouping (unlike
// Google's parser). Only a User-agent line that follows a rule line starts
// a new group; rules before the first User-agent line are ignored; User-agent
// lines with no rule after them (at the end of the file, or followed only
// by Crawl-delay or Sitemap lines) still form a group, which allows
// everything to the agents it names. Groups naming the same agent are
// merged. Sitemap lines are global;
// Crawl-delay is parsed per group and reported, never obeyed here. Every
// line that was ignored or looks wrong gets a Note.
//
// A crawler follows the merged group naming its agent token (AgentToken:
// the leading run of ASCII letters, digits, "_" and "-", compared ASCII
// case-insensitively), else the * group, else nothing applies and
// everything is allowed. A User-agent value names the * group when it is
// "*" alone or "*" followed by whitespace and anything else (IsStarAgent:
// "* (+http://example.com/bot)" does, "*foo" names nobody).
//
// Where docs/robots-rules.md is silent, this package decides: the first
// valid Crawl-delay of a group counts; a Sitemap
// value must be an absolute URL with a host; a "%" that starts no escape is
// the literal percent, %25.
//
// # Matching (section B)
//
// The target is a URL's path and query as requested. Patterns and targets
// are normalised alike: non-ASCII, space and control octets are
// percent-encoded, escapes upper-cased, escapes of unreserved characters
// decoded; %2F stays distinct from "/", and %2A and %24 in a pattern are
// the literal "*" and "$". Matching is a case-sensitive prefix match where
// "*" matches any octets and a final "$" anchors the end. The matching rule
// with the longest normalised pattern wins, Allow on a tie; no match means
// allowed, and among equals the earliest line decides; /robots.txt itself
// (not /robots.txt?x) is always allowed. Empty Allow and Disallow values
// are no rules. Each Verdict names the deciding rule and its line.
//
// # Limits, cost and concurrency
//
// Parse reads at most DefaultMaxBytes (500 KiB) of a body, or more with
// MaxBytes, and drops a line the limit cuts; it records at most
// DefaultMaxNotes notes (MaxNotes). A Robots and its Groups are immutable
// and safe for concurrent use. Group.Test compiles the group's rules once,
// on first use, into literal segments sorted by precedence; a test is
// linear in target length times pattern length at worst, uses no regular
// expressions and does not allocate (targets whose normalised form exceeds
// 16 KiB excepted).
//
// The package uses only the standard library.
package robotstxt
