package sitemap

import "time"

// Entry is one entry of a sitemap, as handed to the callback of [Parse]. It
// is a plain value: the callback may keep it, and every string in it, for as
// long as it likes.
type Entry struct {
	// Kind is the kind of the document the entry comes from, the same for
	// every entry of one Parse call. [Index] means Loc names a child sitemap;
	// [URLSet] and [Text] mean Loc names a page.
	Kind Kind

	// Loc is the location, trimmed of ASCII whitespace, with XML entities
	// decoded, otherwise exactly as written. It is an absolute http or https
	// URL that net/url accepts, at most [Options.MaxURLLength] bytes long; it
	// is not normalised. When an element holds several <loc> children, the
	// first one counts.
	Loc string

	// LastMod is the time of <lastmod>, in the zone the document wrote. The
	// forms read are those of the W3C Datetime profile sitemaps.org names
	// (YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.s]]TZD with TZD "Z"
	// or "+hh:mm"), where a date alone is midnight UTC; and two common
	// deviations: a zone without its colon ("+0000"), and a full time without
	// a zone, read as UTC. LastMod is the zero Time when absent or in no such
	// form, and always for text sitemaps.
	LastMod time.Time

	// ChangeFreq is the <changefreq> value in lower case: one of "always",
	// "hourly", "daily", "weekly", "monthly", "yearly", "never". It is empty
	// when absent or not one of those, and always empty for index and text
	// entries, whose formats have no such field.
	ChangeFreq string

	// Priority is the <priority> value, between 0.0 and 1.0 inclusive. It is
	// -1 when absent, not a number or out of range, and always -1 for index
	// and text entries. (The protocol's default for an absent priority is 0.5;
	// -1 lets the caller tell "absent" from "written as 0.5".)
	Priority float64
}

// Result reports what one [Parse] call saw. It is meaningful even when Parse
// returns an error: it then describes the document up to the error.
type Result struct {
	// Kind is the kind of the document: [Unknown] when its format was never
	// decided (empty input, a document that is not a sitemap, or one that
	// failed or was cut before its first non-space byte).
	Kind Kind

	// Gzip reports that the input was gzip-compressed (detected from its
	// first two bytes).
	Gzip bool

	// Entries counts the entries handed to the callback, including one for
	// which the callback returned an error.
	Entries int

	// Skipped counts the entries not delivered because their location was
	// empty, missing, not an absolute http(s) URL, not accepted by net/url,
	// not valid UTF-8, or longer than [Options.MaxURLLength]. Blank lines of
	// a text sitemap are not entries and are not counted.
	Skipped int

	// Cut reports that a limit stopped the document before its end. The
	// entry being read when the limit was reached is neither delivered nor
	// skipped. Entries+Skipped never exceeds [Options.MaxEntries].
	Cut bool

	// CutReason names the limit that cut the document: "50000 entries",
	// "50 MiB decoded", "1 MiB token" or "32 levels" (with the limit's
	// actual value). It is empty when Cut is false.
	CutReason string
}
