package sitemap

import (
	"encoding/xml"
	"fmt"
	"io"
)

// parseXML reads an XML sitemap or sitemap index with encoding/xml, with
// the tolerance the package documentation describes.
//
// It reads raw tokens (xml.Decoder.RawToken) and keeps its own stack of open
// elements, at most MaxDepth deep: Decoder.Token would also keep a
// namespace map and an element stack of its own, which a document can grow
// far beyond its size with namespace declarations. Non-strict mode keeps an
// unknown entity as written.
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

	w := xmlWalker{p: p, open: make([]xml.Name, 0, min(p.opts.MaxDepth, 64))}
	w.e.loc.max = p.opts.MaxURLLength
	w.e.lastMod.max, w.e.changeFreq.max, w.e.priority.max = maxValueLength, maxValueLength, maxValueLength
	for {
		guard.markToken(dec.InputOffset())
		tok, err := dec.RawToken()
		if err == io.EOF {
			return w.eof()
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = w.start(t.Name)
		case xml.EndElement:
			var done bool
			if done, err = w.end(t.Name); done {
				return nil // the root is closed: the document is complete
			}
		case xml.CharData:
			if len(w.open) == 3 && w.cur != nil {
				w.cur.add(t)
			}
		}
		if err != nil {
			return err
		}
	}
}

// xmlWalker follows the elements of one XML document.
type xmlWalker struct {
	p       *parser
	open    []xml.Name // open elements, outermost first; never over MaxDepth
	inEntry bool       // open[1] is an entry element
	e       xmlEntry   // the entry being read, when inEntry
	cur     *field     // the field open[2] fills, or nil
}

// start handles a start tag.
func (w *xmlWalker) start(name xml.Name) error {
	if len(w.open) >= w.p.opts.MaxDepth {
		w.p.cut(fmt.Sprintf("%d levels", w.p.opts.MaxDepth))
		return errStopped
	}
	w.open = append(w.open, name)
	switch len(w.open) {
	case 1:
		kind := rootKind(name.Local)
		if kind == Unknown {
			return fmt.Errorf("%w: root element <%s>", ErrNotSitemap, clip(qname(name)))
		}
		w.p.res.Kind = kind
	case 2:
		if name.Local == entryElement(w.p.res.Kind) && samePrefix(name.Space, w.open[0].Space) {
			if w.p.full() {
				return w.p.stopFull()
			}
			w.e.begin()
			w.inEntry = true
		}
	case 3:
		if w.inEntry && samePrefix(name.Space, w.open[1].Space) {
			w.cur = w.e.field(w.p.res.Kind, name.Local)
		}
	}
	return nil
}

// end handles an end tag: it closes the innermost open element of that name
// and every element inside it. It reports done when that closes the root.
func (w *xmlWalker) end(name xml.Name) (done bool, err error) {
	i := len(w.open) - 1
	for i >= 0 && w.open[i] != name {
		i--
	}
	if i < 0 {
		return false, fmt.Errorf("%w: end tag </%s> closes no open element", ErrMalformed, clip(qname(name)))
	}
	for len(w.open) > i {
		if done, err := w.close(); done || err != nil {
			return done, err
		}
	}
	return false, nil
}

// close closes the innermost open element, delivering the entry it ends.
func (w *xmlWalker) close() (done bool, err error) {
	depth := len(w.open)
	w.open = w.open[:depth-1]
	switch depth {
	case 3:
		w.cur = nil
	case 2:
		if w.inEntry {
			w.inEntry = false
			return false, w.p.takeXML(&w.e)
		}
	case 1:
		return true, nil
	}
	return false, nil
}

// eof handles the end of the input before the root closed.
func (w *xmlWalker) eof() error {
	if len(w.open) == 0 {
		return fmt.Errorf("%w: no root element", ErrMalformed)
	}
	return fmt.Errorf("%w: unexpected EOF inside <%s>", ErrMalformed, clip(qname(w.open[len(w.open)-1])))
}

// qname returns name as written: prefix:local, or local.
func qname(name xml.Name) string {
	if name.Space == "" {
		return name.Local
	}
	return name.Space + ":" + name.Local
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

// samePrefix reports whether a child with prefix child belongs with a parent
// with prefix parent: the same prefix, or none.
func samePrefix(child, parent string) bool {
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
	loc, lastMod, changeFreq, priority field
	seen                               uint8 // fields already begun
}

// begin resets e for a new entry element.
func (e *xmlEntry) begin() {
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
