// Package sitemap is a streaming parser for sitemaps as defined by the
// sitemaps.org protocol: XML <urlset> files, XML <sitemapindex> files and
// plain-text files of one URL per line, each either as is or gzip-compressed.
//
// [Parse] reads a document once, front to back, and hands each entry to a
// callback as soon as its closing tag (or line end) is read; it never holds
// more than one entry in memory. Every way a hostile or broken document could
// make it use more memory or time is capped by a limit in [Options]:
//
//   - [MaxEntries] entries per file (sitemaps.org: at most 50,000 URLs);
//   - [MaxDecodedBytes] bytes after decompression (sitemaps.org: at most
//     50 MiB uncompressed), which also defuses gzip bombs;
//   - [MaxTokenBytes] bytes for one XML token (one text run, tag or comment),
//     so that a single giant token cannot make encoding/xml buffer it whole;
//   - [MaxDepth] levels of nested XML elements, each of which encoding/xml
//     remembers until it closes;
//   - [MaxURLLength] bytes per URL (sitemaps.org: less than 2,048
//     characters); a longer line of a text sitemap is skipped without being
//     read into memory.
//
// A document that reaches the entry, byte, token or depth limit is cut there: the
// entries delivered so far stand, and [Result.Cut] and [Result.CutReason]
// record the cut. A cut is not an error.
//
// # What Parse decides and what it leaves to the caller
//
// Parse decides the validity of a URL only minimally: an entry is delivered
// when its location, trimmed of ASCII whitespace, is an absolute http or https
// URL that net/url accepts and that is no longer than MaxURLLength bytes.
// Every other entry is counted in [Result.Skipped] and not delivered. The
// caller is expected to re-parse delivered URLs with its own URL parser and to
// apply the protocol's placement rules (a sitemap may list only URLs under its
// own directory, on its own host), because Parse does not know where the
// document came from.
//
// Entries of a sitemap index are delivered like any other entry, with
// [Entry.Kind] set to [Index]. Parse never fetches anything: fetching child
// sitemaps, and bounding how deep and how wide that goes, is the caller's job.
//
// # Format detection
//
// The format is decided from the bytes, never from a name or a media type.
// Input starting with the gzip magic bytes 1f 8b is decompressed first (one
// layer; a gzip stream inside a gzip stream is not unwrapped). Then a UTF-8
// byte order mark is skipped, and so is leading ASCII whitespace; if the first
// remaining byte is '<' the document is XML, otherwise it is a text sitemap.
// Empty input (or input of only whitespace) has [Kind] [Unknown] and no
// entries, and is not an error. An XML document whose root element is neither
// urlset nor sitemapindex (an HTML error page, an RSS feed) yields
// [ErrNotSitemap] as soon as its root element is read.
package sitemap
