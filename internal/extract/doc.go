// Package extract turns a fetched response body into what the crawler and
// the index need: the title, the visible text, the links with their anchor
// text, the canonical URL and the meta elements (for robotstag.FromMeta).
//
// [HTML] streams the body through golang.org/x/net/html's tokenizer, not
// its tree builder: memory is bounded by the caps in [Options] plus the
// longest single token ([Options.MaxTokenBytes]), whatever the page size.
// [PlainText] does the text part for text/plain bodies.
//
// # Character encoding
//
// The body's encoding is decided as a browser does (WHATWG "determining the
// character encoding", via golang.org/x/net/html/charset): a byte order
// mark, then the charset parameter of the Content-Type header, then a
// <meta charset> or <meta http-equiv=content-type> in the first 1024 bytes,
// then a sniff. One deliberate difference: when the answer is windows-1252
// (the default, or a <meta> naming windows-1252, iso-8859-1 or another of
// its labels) but the whole body is valid UTF-8 with at least one non-ASCII
// character, UTF-8 is used. Windows-1252 text is almost never valid UTF-8,
// while templates that declare iso-8859-1 and serve UTF-8 are common; a
// header charset is never overridden. Every string the package returns is
// valid UTF-8: bytes that do not decode become U+FFFD.
//
// # What counts as visible text
//
// Text is what a browser without scripts shows: the content of <script>,
// <style>, <template>, <iframe>, <noembed>, <noframes> and <title> is left
// out, as are comments and SVG/MathML <script>, <style>, <title> and <desc>.
// The content of <noscript> is kept: Mandelbot runs no scripts, so that is
// the markup it is given (robotstag makes the same choice for meta tags).
// There is no separate rule for <head>: by the HTML parsing rules any text
// there either belongs to one of the elements above or moves into the body.
// Image alt text is not in Text (it is not visible); it is used as anchor
// text of a link that has no text of its own.
//
// Whitespace is collapsed: runs of ASCII whitespace, ASCII control
// characters and U+00A0 (the no-break space, &nbsp;) become one space, and
// the result has no leading or trailing space; U+0000 is dropped, as the
// HTML tree builder drops it. Block-level elements and <br> separate words
// ("<p>a</p><p>b</p>" gives "a b"); inline elements do not ("<b>a</b>b"
// gives "ab"); inside SVG and MathML, which place text element by element,
// every element but <a> separates words. A capped string is a prefix of
// the uncapped one, cut at a character boundary.
//
// The same rules give the title and each link's anchor text.
//
// # Links
//
// Links are the <a href> and <area href> elements (and SVG <a> with href or
// xlink:href), in document order, duplicates kept (the anchor text of each
// occurrence matters to the index). <a> without href is not a link. <link>
// elements are not links, except that the first rel=canonical one gives
// [Document.Canonical]. Links inside <template> are inert and ignored.
//
// Every href is resolved against the document's base URL: the href of the
// first <base> element in the document, itself resolved against the document
// URL, whether that <base> comes before or after the link (browsers use the
// first base for all links). The fragment is removed (it names a place in
// the same page), so "#top" resolves to the page itself. Hrefs that do not
// resolve to an http or https URL (javascript:, mailto:, data:, malformed)
// are counted in [Document.SkippedLinks] and dropped.
//
// rel=nofollow sets [Link.NoFollow]. rel=ugc and rel=sponsored do not: they
// say what kind of link it is (user content, an advert), not that a crawler
// should not follow it.
//
// The package only reads: it keeps no state between calls, reads no
// environment and does no I/O. [HTML] and [PlainText] are safe for
// concurrent use.
//
// Known deviation: a document in a legacy encoding is decoded to UTF-8
// before its hrefs are read, so non-ASCII characters in a query string are
// percent-encoded as UTF-8 where a browser would use the document's encoding.
package extract
