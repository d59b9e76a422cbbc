package extract

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTML extracts a Document from an HTML response body. docURL is the URL
// the body was fetched from (after redirects); contentType is the
// Content-Type header as received, used only for its charset parameter.
//
// The error is non-nil only when Options.NewResolver rejects docURL (with
// the default resolver: it does not parse, or is not an absolute http or
// https URL). Everything else, however broken, yields a Document: a
// truncated or malformed body gives what could be read, and what a cap
// cut off is reported in Document.Truncated.
//
// HTML reads body and does not retain it. It is safe for concurrent use
// when Options.NewResolver is and Options.Buffers is nil (or not shared).
func HTML(body []byte, docURL, contentType string, opts Options) (Document, error) {
	lim := opts.limits()
	resolve, err := lim.newResolver(docURL)
	if err != nil {
		return Document{}, fmt.Errorf("extract: document URL: %w", err)
	}
	dec := htmlDecoding(body, contentType)
	x := newExtractor(lim, opts.Buffers.tokenizer(dec.reader(body)))
	if opts.Buffers != nil {
		opts.Buffers.lend(x)
		defer opts.Buffers.keep(x)
	}
	x.run()
	doc := x.finish(resolve)
	doc.Charset = dec.name
	return doc, nil
}

// pendingLink is a link element read but not yet resolved: resolution
// waits for the end of the document, because a <base> anywhere in it
// applies to every link.
type pendingLink struct {
	href, anchor string
	nofollow     bool
}

// extractor is the state of one HTML extraction: one tokenizer pass that
// routes each token to the text, the title, the links and the metas.
type extractor struct {
	z   *html.Tokenizer
	lim limits
	doc Document // Metas, Lang and Truncated are filled while reading

	text, title textBuf
	headings    textBuf // the text of h1-h6 (Document.Headings)
	anchor, alt textBuf // the open link's text, and its images' alt text
	scratch     textBuf // an <area>'s alt text

	raw       rawAction // what the next token is, if it is raw text
	titleSeen bool      // the document's <title> has been met
	templates int       // depth of <template> elements: inert content
	foreign   int       // depth of <svg> and <math> elements
	hidden    int       // depth of foreign elements whose text is not shown

	heading int    // depth of h1-h6 elements
	term    bool   // a <dt> is open (its end tag may be omitted: a <dd>, <dt> or </dl> ends it)
	chrome  chrome // the open navigation, header or footer element, if any

	inAnchor  bool        // a link element is open
	cur       pendingLink // the open link
	links     []pendingLink
	linkElems int // link elements with an href met so far

	longestTag int // bytes of the longest start tag: it bounds the tokenizer's attribute-name map

	base, canonical       string
	hasBase, hasCanonical bool
	htmlSeen              bool
	metaLang              string // from <meta http-equiv=content-language>
}

func newExtractor(lim limits, z *html.Tokenizer) *extractor {
	z.SetMaxBuf(lim.token)
	return &extractor{
		z:        z,
		lim:      lim,
		text:     textBuf{max: lim.text},
		title:    textBuf{max: lim.title},
		headings: textBuf{max: lim.headings},
		anchor:   textBuf{max: lim.anchor},
		alt:      textBuf{max: lim.anchor},
		scratch:  textBuf{max: lim.anchor},
	}
}

// run reads every token of the document.
func (x *extractor) run() {
	for {
		tt := x.z.Next()
		raw := x.raw
		x.raw = rawNone
		switch tt {
		case html.ErrorToken:
			// io.EOF is the normal end. The body is in memory and decoders
			// replace what they cannot decode, so the only other error is
			// a token over the cap.
			if errors.Is(x.z.Err(), html.ErrBufferExceeded) {
				x.doc.Truncated |= CapToken
			}
			x.closeAnchor()
			return
		case html.TextToken:
			x.onText(raw)
		case html.StartTagToken:
			x.onStart(false)
		case html.SelfClosingTagToken:
			x.onStart(true)
		case html.EndTagToken:
			x.onEnd()
		}
		// Comments and doctypes carry no text. "a<!-- -->b" is "ab", as in
		// a browser.
	}
}

// onText handles a text token; raw says whether it is the content of a
// raw-text element, and which.
func (x *extractor) onText(raw rawAction) {
	if x.templates > 0 {
		return
	}
	switch raw {
	case rawSkip:
		return
	case rawTitle:
		x.title.write(x.z.Text())
		return
	case rawNone:
		if x.hidden > 0 {
			return
		}
	}
	p := x.z.Text()
	if x.inAnchor {
		x.anchor.write(p)
		if isPermalinkMark(p) {
			return // a heading's "¶" link: not text of the page
		}
	}
	if x.heading > 0 || x.term && !x.inAnchor {
		x.headings.write(p)
	}
	if x.chrome.depth == 0 {
		x.text.write(p)
	}
}

// brk marks a word boundary in the text and in the open link's text.
func (x *extractor) brk() {
	x.text.brk()
	x.headings.brk()
	if x.inAnchor {
		x.anchor.brk()
	}
}

// onStart handles a start tag.
func (x *extractor) onStart(selfClosing bool) {
	raw := x.z.Raw()
	x.longestTag = max(x.longestTag, len(raw))
	a := tagAtom(raw)
	if x.templates > 0 {
		if a == atom.Template {
			x.templates++
		}
		return
	}
	if x.foreign > 0 {
		if !breaksOutOfForeign(a) {
			x.onForeignStart(a, selfClosing)
			return
		}
		x.leaveForeign()
	}
	switch a {
	case atom.Template:
		// The self-closing flag is ignored on <template>: it still opens.
		x.templates++
	case atom.Svg, atom.Math:
		if !selfClosing {
			x.foreign = 1
			x.z.AllowCDATA(true)
		}
	case atom.A:
		x.closeAnchor() // an <a> start tag closes any open one
		x.openAnchor(false)
	case atom.Area:
		x.onArea()
	case atom.Img:
		x.onImg()
	case atom.Base:
		x.onBase()
	case atom.Link:
		x.onLink()
	case atom.Meta:
		x.onMeta()
	case atom.Html:
		x.onHTML()
	case atom.Noscript:
		// No scripts run here: read <noscript> content as markup, as a
		// browser with scripting disabled does.
		x.z.NextIsNotRawText()
	case atom.Title:
		// The self-closing flag is ignored here too: <title/> opens a title.
		if x.titleSeen {
			x.raw = rawSkip
		} else {
			x.titleSeen = true
			x.raw = rawTitle
		}
	default:
		x.raw = rawActionOf(a)
	}
	if isHeading(a) && !selfClosing {
		x.heading++
	}
	if a == atom.Dt || a == atom.Dd {
		x.term = a == atom.Dt && !selfClosing
	}
	x.chrome.onStart(a, selfClosing, x.attrs)
	if isBlock(a) {
		x.brk()
	}
}

// onForeignStart handles a start tag inside <svg> or <math>. There, no
// element is raw text: <title> or <style> is an ordinary element.
//
// SVG and MathML lay text out by element (an SVG <text> has its own
// position, a MathML <mi> is its own symbol), so every element boundary
// there separates words, except a link's.
func (x *extractor) onForeignStart(a atom.Atom, selfClosing bool) {
	x.z.NextIsNotRawText()
	if a != atom.A {
		x.brk()
	}
	switch {
	case a == atom.A:
		x.closeAnchor()
		x.openAnchor(true)
	case selfClosing:
		// Foreign elements honour the self-closing flag: nothing opens.
	case a == atom.Svg || a == atom.Math:
		x.foreign++
	case hiddenInForeign(a):
		x.hidden++
	}
}

// leaveForeign returns to HTML content.
func (x *extractor) leaveForeign() {
	x.foreign, x.hidden = 0, 0
	x.z.AllowCDATA(false)
}

// onEnd handles an end tag.
func (x *extractor) onEnd() {
	a := tagAtom(x.z.Raw())
	if x.templates > 0 {
		if a == atom.Template {
			x.templates--
		}
		return
	}
	if x.foreign > 0 {
		if a != atom.A {
			x.brk()
		}
		switch {
		case a == atom.Svg || a == atom.Math:
			if x.foreign--; x.foreign == 0 {
				x.leaveForeign()
			}
			return
		case hiddenInForeign(a):
			if x.hidden > 0 {
				x.hidden--
			}
			return
		case a == atom.A:
			x.closeAnchor()
			return
		case a == atom.P || a == atom.Br:
			// The two end tags that break out of foreign content.
			x.leaveForeign()
		default:
			return
		}
	}
	if a == atom.A {
		x.closeAnchor()
	}
	if isHeading(a) && x.heading > 0 {
		x.heading--
	}
	if a == atom.Dt || a == atom.Dl {
		x.term = false
	}
	x.chrome.onEnd(a)
	if isBlock(a) {
		x.brk()
	}
}

// attrs calls f with each attribute of the current tag: the key
// lower-cased, the value with character references decoded. Both slices are
// only valid during the call.
func (x *extractor) attrs(f func(key, val []byte)) {
	for {
		key, val, more := x.z.TagAttr()
		if key == nil { // no attributes at all
			return
		}
		f(key, val)
		if !more {
			return
		}
	}
}

// tagAtom returns the atom of the name of a start or end tag, read from the
// tag's raw bytes ("<DIV class=x>" gives atom.Div), or 0 for a name that is
// no atom. The tokenizer's TagName would do, but it allocates a copy of
// every name; this is the hot path of the extractor.
func tagAtom(raw []byte) atom.Atom {
	i := 1 // after '<'
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	var name [maxTagName]byte
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		// The tokenizer ends a tag name at HTML whitespace, '/' or '>'.
		if isHTMLSpace(c) || c == '/' || c == '>' {
			break
		}
		if n == len(name) {
			return 0 // longer than every atom
		}
		name[n] = lowerByte(c)
		n++
	}
	return atom.Lookup(name[:n])
}

// maxTagName is longer than the longest name in golang.org/x/net/html/atom.
const maxTagName = 32

// openAnchor starts a link for an <a> start tag, if it has an href.
// Inside SVG, xlink:href counts when there is no href.
func (x *extractor) openAnchor(foreign bool) {
	var href, xlink string
	var hasHref, hasXlink, nofollow bool
	x.attrs(func(key, val []byte) {
		switch string(key) {
		case "href":
			href, hasHref = validString(val), true
		case "xlink:href":
			xlink, hasXlink = validString(val), foreign
		case "rel":
			nofollow = hasToken(string(val), "nofollow")
		}
	})
	if !hasHref && hasXlink {
		href, hasHref = xlink, true
	}
	if !hasHref || !x.countLink() {
		return
	}
	x.inAnchor = true
	x.cur = pendingLink{href: href, nofollow: nofollow}
	x.anchor.reset()
	x.alt.reset()
}

// closeAnchor ends the open link, if any, and queues it for resolution.
func (x *extractor) closeAnchor() {
	if !x.inAnchor {
		return
	}
	x.inAnchor = false
	text := &x.anchor
	if text.empty() {
		text = &x.alt
	}
	if text.full {
		x.doc.Truncated |= CapAnchor
	}
	x.cur.anchor = text.String()
	x.links = append(x.links, x.cur)
}

// countLink counts a link element with an href and reports whether it fits
// under the cap.
func (x *extractor) countLink() bool {
	x.linkElems++
	if x.linkElems > x.lim.links {
		x.doc.Truncated |= CapLinks
		return false
	}
	return true
}

// onArea records an <area href>: a link whose anchor text is its alt.
func (x *extractor) onArea() {
	var href string
	var hasHref, nofollow bool
	x.scratch.reset()
	x.attrs(func(key, val []byte) {
		switch string(key) {
		case "href":
			href, hasHref = validString(val), true
		case "rel":
			nofollow = hasToken(string(val), "nofollow")
		case "alt":
			x.scratch.write(val)
		}
	})
	if !hasHref || !x.countLink() {
		return
	}
	if x.scratch.full {
		x.doc.Truncated |= CapAnchor
	}
	x.links = append(x.links, pendingLink{href: href, anchor: x.scratch.String(), nofollow: nofollow})
}

// onImg keeps the alt text of an image inside a link, the link's anchor
// text should it have no text of its own.
func (x *extractor) onImg() {
	if !x.inAnchor {
		return
	}
	x.attrs(func(key, val []byte) {
		if string(key) == "alt" {
			x.alt.brk()
			x.alt.write(val)
			x.alt.brk()
		}
	})
}

// onBase records the href of the first <base> that has one.
func (x *extractor) onBase() {
	if x.hasBase {
		return
	}
	x.attrs(func(key, val []byte) {
		if string(key) == "href" {
			x.base, x.hasBase = validString(val), true
		}
	})
}

// onLink records the href of the first <link rel=canonical>.
func (x *extractor) onLink() {
	if x.hasCanonical {
		return
	}
	var href string
	var hasHref, canonical bool
	x.attrs(func(key, val []byte) {
		switch string(key) {
		case "href":
			href, hasHref = validString(val), true
		case "rel":
			canonical = hasToken(string(val), "canonical")
		}
	})
	if hasHref && canonical {
		x.canonical, x.hasCanonical = href, true
	}
}

// onMeta records a <meta name=...>, and the first language of a
// <meta http-equiv=content-language>.
func (x *extractor) onMeta() {
	var m Meta
	var hasName, contentLanguage bool
	x.attrs(func(key, val []byte) {
		switch string(key) {
		case "name":
			m.Name, hasName = validString(val), true
		case "content":
			m.Content = validString(val)
		case "http-equiv":
			contentLanguage = equalFold(trimHTMLSpace(string(val)), "content-language")
		}
	})
	if contentLanguage && x.metaLang == "" {
		first, _, _ := strings.Cut(m.Content, ",")
		x.metaLang = langTag(first)
	}
	if !hasName {
		return
	}
	if len(x.doc.Metas) >= x.lim.metas {
		x.doc.Truncated |= CapMetas
		return
	}
	x.doc.Metas = append(x.doc.Metas, m)
}

// onHTML reads the lang attribute of the first <html> tag.
func (x *extractor) onHTML() {
	if x.htmlSeen {
		return
	}
	x.htmlSeen = true
	x.attrs(func(key, val []byte) {
		if string(key) == "lang" {
			x.doc.Lang = langTag(string(val))
		}
	})
}

// finish resolves the links and the canonical URL against the document's
// base URL and returns the Document.
func (x *extractor) finish(resolve ResolveFunc) Document {
	doc := x.doc
	doc.Title = x.title.String()
	if x.title.full {
		doc.Truncated |= CapTitle
	}
	doc.Text = x.text.String()
	if x.text.full {
		doc.Truncated |= CapText
	}
	doc.Headings = x.headings.String()
	if doc.Lang == "" {
		doc.Lang = x.metaLang
	}
	if x.hasBase {
		// A base that does not resolve, or resolves to a URL the resolver
		// refuses as a base, leaves the document URL in effect (HTML
		// "document base URL" falls back the same way).
		if b, err := x.resolveURL(resolve, x.base); err == nil {
			if r, err := x.lim.newResolver(b); err == nil {
				resolve = r
			}
		}
	}
	if len(x.links) > 0 {
		doc.Links = make([]Link, 0, len(x.links))
	}
	for _, p := range x.links {
		u, err := x.resolveURL(resolve, p.href)
		if err != nil {
			doc.SkippedLinks++
			continue
		}
		doc.Links = append(doc.Links, Link{URL: u, Raw: p.href, Anchor: p.anchor, NoFollow: p.nofollow, Fragment: hasFragment(p.href)})
	}
	if x.hasCanonical {
		if u, err := x.resolveURL(resolve, x.canonical); err == nil {
			doc.Canonical = u
		}
	}
	return doc
}

// errTooLong is the reason an href or its resolution is refused for length.
var errTooLong = errors.New("URL longer than MaxURLBytes")

// resolveURL resolves href with resolve, enforcing MaxURLBytes on both
// sides and removing the fragment.
func (x *extractor) resolveURL(resolve ResolveFunc, href string) (string, error) {
	if len(href) > x.lim.url {
		return "", errTooLong
	}
	u, err := resolve(href)
	if err != nil {
		return "", err
	}
	u = stripFragment(u)
	if len(u) > x.lim.url {
		return "", errTooLong
	}
	return validUTF8(u), nil
}
