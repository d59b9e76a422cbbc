package extract

import "strings"

// Document is what one response body yields. Its zero value is an empty
// document. A Document owns its slices and strings; it holds no reference
// to the body it came from. Every string in it is valid UTF-8.
type Document struct {
	// Title is the text of the first <title> element that is not inside
	// SVG, MathML or <template>, whitespace collapsed, capped at
	// Options.MaxTitleBytes. Empty when there is none.
	Title string
	// Text is the visible text (see the package comment), whitespace
	// collapsed, capped at Options.MaxTextBytes, without the site's chrome
	// (navigation, page header and footer: see the package comment) and
	// without permalink marks ("¶" links).
	Text string
	// Headings is the text of the h1-h6 elements and of the terms of
	// definition lists (<dt>, issue 32: the names they define; the text of
	// a link inside a <dt>, a table of contents, left out), chrome
	// included, in document order, whitespace collapsed, capped at
	// Options.MaxHeadingsBytes. It is also part of Text (unless chrome).
	Headings string
	// Links are the document's links in document order, at most
	// Options.MaxLinks.
	Links []Link
	// Canonical is the href of the first <link rel=canonical>, resolved
	// like a link. Empty when there is none or it does not resolve (that
	// is not counted in SkippedLinks).
	Canonical string
	// Metas are the <meta> elements that have a name attribute, in
	// document order, at most Options.MaxMetas; the input of
	// robotstag.FromMeta.
	Metas []Meta
	// Lang is the lang attribute of the <html> element, trimmed; failing
	// that, the first language of a <meta http-equiv=content-language>.
	// Empty when neither is present or the value is not made of ASCII
	// letters, digits, '-' and '_'.
	Lang string
	// Charset is the WHATWG name of the encoding the body was decoded
	// with: "utf-8", "windows-1252", "shift_jis", ...
	Charset string
	// Truncated says which caps were hit; zero when none was.
	Truncated Cap
	// SkippedLinks counts link elements whose href did not resolve to an
	// http or https URL (javascript:, mailto:, data:, malformed, too long).
	SkippedLinks int
}

// Link is one <a href> or <area href> of a document.
type Link struct {
	// URL is the href resolved against the document's base URL by the
	// Options.NewResolver function, without its fragment.
	URL string
	// Raw is the href attribute as written, character references decoded.
	Raw string
	// Anchor is the link's visible text, whitespace collapsed, capped at
	// Options.MaxAnchorBytes. When the link has no text, it is the alt
	// text of the images inside it (for <area>, its own alt).
	Anchor string
	// Fragment reports that the href names a fragment (page#section):
	// the anchor text then describes a section of the page, not the page.
	Fragment bool
	// NoFollow reports that the rel attribute contains the token
	// "nofollow" (ASCII case-insensitive). "ugc" and "sponsored" do not
	// set it.
	NoFollow bool
}

// Meta is one <meta> element's name and content attributes as written
// (character references decoded, otherwise untouched). It has the shape of
// robotstag.Meta, so a caller converts with a plain loop.
type Meta struct {
	Name, Content string
}

// Cap is a set of the caps of [Options] that were hit while extracting.
// The zero value is the empty set.
type Cap uint8

// The caps a Document can report in Truncated.
const (
	CapText   Cap = 1 << iota // Text reached MaxTextBytes
	CapLinks                  // there were more than MaxLinks link elements
	CapAnchor                 // at least one anchor text reached MaxAnchorBytes
	CapTitle                  // Title reached MaxTitleBytes
	CapMetas                  // there were more than MaxMetas named metas
	CapToken                  // a token exceeded MaxTokenBytes; the rest of the body was not read
)

var capNames = [...]string{"text", "links", "anchor", "title", "metas", "token"}

// Has reports whether every cap in x is in c.
func (c Cap) Has(x Cap) bool { return c&x == x }

// String lists the caps in c, comma-separated ("text,links"); "" for none.
func (c Cap) String() string {
	var parts []string
	for i, name := range capNames {
		if c&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, ",")
}
