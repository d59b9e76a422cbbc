package sitemap

import (
	"encoding/xml"
	"fmt"
	"io"
)

// parseXML reads an XML sitemap or sitemap index with encoding/xml.
//
// Tolerance, deliberately wider than the protocol's schema:
//   - The decoder runs in non-strict mode: an unescaped '&' that starts no
//     known entity is kept as written (a common fault in URLs with queries),
//     and a mismatched end tag closes the open elements it skips. Syntax
//     errors (a document cut inside a tag, an unclosed root at the end, a
//     '<' in text) still fail with ErrMalformed.
//   - Element names are matched on their local part only and case-sensitively,
//     as XML names are: <urlset>, <sitemapindex>, <url>, <sitemap>, <loc>,
//     <lastmod>, <changefreq>, <priority>. The root element's namespace is
//     not checked (absent, the sitemaps.org one, Google's old 0.84 one, or
//     any other). An entry element counts when it is a direct child of the
//     root in the root's namespace or in none; a field counts when it is a
//     direct child of the entry in the entry's namespace or in none. So the
//     <image:loc> of an image extension, which is a grandchild of <url>, is
//     never taken for the page's <loc>.
//   - Only the first of each field of an entry counts.
func (p *parser) parseXML() error {
	guard := &tokenGuard{src: p.br, max: int64(p.opts.MaxTokenBytes)}
	dec := xml.NewDecoder(guard)
	dec.Strict = false
	dec.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		// The reader encoding/xml passes is guard; convert below it, so
		// that the guard counts the bytes the decoder sees.
		convert, err := charsetConverter(label)
		if err != nil {
			return nil, err
		}
		guard.convert(convert)
		return guard, nil
	}

	var (
		depth     int
		rootSpace string
		inEntry   bool
		e         xmlEntry
		cur       *field // the field whose text is being read, or nil
	)
	e.loc.max = p.opts.MaxURLLength
	e.lastMod.max, e.changeFreq.max, e.priority.max = maxValueLength, maxValueLength, maxValueLength
	for {
		guard.markToken(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			return fmt.Errorf("%w: no root element", ErrMalformed)
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > p.opts.MaxDepth {
				p.cut(fmt.Sprintf("%d levels", p.opts.MaxDepth))
				return errStopped
			}
			switch {
			case depth == 1:
				kind := rootKind(t.Name.Local)
				if kind == Unknown {
					return fmt.Errorf("%w: root element <%s>", ErrNotSitemap, clip(t.Name.Local))
				}
				p.res.Kind = kind
				rootSpace = t.Name.Space
			case depth == 2 && t.Name.Local == entryElement(p.res.Kind) && sameSpace(t.Name.Space, rootSpace):
				if p.full() {
					return p.stopFull()
				}
				e.begin(t.Name.Space)
				inEntry = true
			case depth == 3 && inEntry && sameSpace(t.Name.Space, e.space):
				cur = e.field(p.res.Kind, t.Name.Local)
			}
		case xml.EndElement:
			switch depth {
			case 3:
				cur = nil
			case 2:
				if inEntry {
					inEntry = false
					if err := p.takeXML(&e); err != nil {
						return err
					}
				}
			case 1:
				return nil // the root is closed: the document is complete
			}
			depth--
		case xml.CharData:
			if depth == 3 && cur != nil {
				cur.add(t)
			}
		}
	}
}

// rootKind returns the kind a root element's local name announces, or
// Unknown.
func rootKind(local string) Kind {
	switch local {
	case "urlset":
		return URLSet
	case "sitemapindex":
		return Index
	}
	return Unknown
}

// entryElement returns the local name of an entry of a document of kind k.
func entryElement(k Kind) string {
	if k == Index {
		return "sitemap"
	}
	return "url"
}

// sameSpace reports whether a child in namespace child belongs with a parent
// in namespace parent: the same namespace, or none.
func sameSpace(child, parent string) bool {
	return child == "" || child == parent
}

// takeXML delivers or skips the entry e collected.
func (p *parser) takeXML(e *xmlEntry) error {
	entry := Entry{
		Kind:     p.res.Kind,
		LastMod:  parseLastMod(e.lastMod.value()),
		Priority: -1,
	}
	if p.res.Kind == URLSet {
		entry.ChangeFreq = parseChangeFreq(e.changeFreq.value())
		entry.Priority = parsePriority(e.priority.value())
	}
	return p.take(&e.loc, entry)
}

// Field bits of xmlEntry.seen.
const (
	seenLoc = 1 << iota
	seenLastMod
	seenChangeFreq
	seenPriority
)

// xmlEntry collects the fields of one <url> or <sitemap> element. It is
// reused for every entry of a document.
type xmlEntry struct {
	space                              string // namespace of the entry element
	loc, lastMod, changeFreq, priority field
	seen                               uint8 // fields already begun
}

// begin resets e for a new entry element in namespace space.
func (e *xmlEntry) begin(space string) {
	e.space = space
	e.seen = 0
	e.loc.reset()
	e.lastMod.reset()
	e.changeFreq.reset()
	e.priority.reset()
}

// field returns the field a child element with local name local fills in an
// entry of a document of kind k, or nil when it fills none: an unknown
// element, a field the kind does not have, or a repeat of a field.
func (e *xmlEntry) field(k Kind, local string) *field {
	var f *field
	var bit uint8
	switch {
	case local == "loc":
		f, bit = &e.loc, seenLoc
	case local == "lastmod":
		f, bit = &e.lastMod, seenLastMod
	case local == "changefreq" && k == URLSet:
		f, bit = &e.changeFreq, seenChangeFreq
	case local == "priority" && k == URLSet:
		f, bit = &e.priority, seenPriority
	default:
		return nil
	}
	if e.seen&bit != 0 {
		return nil
	}
	e.seen |= bit
	return f
}
