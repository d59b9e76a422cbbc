package robotstag

import (
	"errors"
	"fmt"
	"io"

	"golang.org/x/net/html"
)

// FromHTML reads the robots meta tags of an HTML document for agent. It is
// Parser{Agent: agent, MaxHTMLBytes: maxBytes}.FromHTML(r); maxBytes <= 0
// means DefaultMaxHTMLBytes.
func FromHTML(r io.Reader, agent string, maxBytes int64) (Directives, error) {
	return Parser{Agent: agent, MaxHTMLBytes: maxBytes}.FromHTML(r)
}

// FromHTML tokenises an HTML document and returns what its robots meta tags give p.Agent, as FromMeta
// does. It reads at most MaxHTMLBytes bytes of r and notes when the
// document was longer. It neither checks the Content-Type nor closes r.
// The bytes are read as UTF-8; any ASCII-compatible charset works as well,
// since the names and directives that matter are ASCII. A UTF-16 document
// has no readable tags here.
//
// Where a meta element counts. The seed asks for the tag "inside the head
// element"; FromHTML honours a robots meta element anywhere in the
// document, in head or body. A stray element in head (a tracking <img>, a
// <div> injected by a plugin) makes an HTML parser end head early and move
// every later meta into body; a head-only reader would then index pages
// whose owners wrote noindex. Honouring the tag wherever it is errs toward
// what the owner wrote, and a wrong noindex is undone on the next crawl
// (docs/robots-rules.md rule 27). What is not a meta element does not count:
// text inside comments, <script>, <style>, <textarea>, <title> and the
// other raw-text elements, and the inert content of <template>. The
// content of <noscript> does count: Mandelbot runs no scripts, so that is
// the markup it is given.
//
// The error is non-nil only when r fails (wrapped, naming the operation);
// the directives read before the failure are returned with it, so a caller
// may still honour a noindex it found.
func (p Parser) FromHTML(r io.Reader) (Directives, error) {
	limit := p.maxHTMLBytes()
	cr := &capReader{r: r, left: limit}
	z := html.NewTokenizer(cr)
	rd := reader{p: p}
	templates := 0
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			d := rd.result()
			if cr.truncated {
				d.note(fmt.Sprintf("document longer than %d bytes; meta tags after that not read", limit))
			}
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return d, fmt.Errorf("robotstag: read HTML: %w", err)
			}
			return d, nil
		case html.StartTagToken, html.SelfClosingTagToken:
			// The name is read from the raw token: TagName allocates, and
			// almost every tag of a page is none of these three.
			switch name := rawTagName(z.Raw()); {
			case equalFoldBytes(name, "template"):
				// A self-closing flag on <template/> is ignored by HTML
				// parsers: it still opens a template.
				templates++
			case equalFoldBytes(name, "noscript"):
				z.NextIsNotRawText()
			case equalFoldBytes(name, "meta"):
				if templates > 0 {
					continue
				}
				if _, hasAttr := z.TagName(); !hasAttr {
					continue
				}
				if m, ok := metaAttrs(z); ok {
					rd.meta(m)
				}
			}
		case html.EndTagToken:
			if templates > 0 && equalFoldBytes(rawTagName(z.Raw()), "template") {
				templates--
			}
		}
	}
}

// rawTagName returns the name of a start or end tag from its raw bytes
// ("<META name=..." gives "META"), delimited as the tokenizer delimits it:
// up to HTML whitespace (space, tab, LF, CR, FF; not VT), '/' or '>'.
func rawTagName(raw []byte) []byte {
	i := 1 // after '<'
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	j := i
	for ; j < len(raw); j++ {
		switch raw[j] {
		case ' ', '\t', '\n', '\r', '\f', '/', '>':
			return raw[i:j]
		}
	}
	return raw[i:j]
}

// equalFoldBytes is equalFold for a byte slice, without converting it.
func equalFoldBytes(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lowerByte(b[i]) != lowerByte(s[i]) {
			return false
		}
	}
	return true
}

// metaAttrs returns the name and content attributes of the current meta
// token. When an attribute is repeated the first one counts, as in HTML
// parsing; the tokenizer already drops the repeats.
func metaAttrs(z *html.Tokenizer) (Meta, bool) {
	var m Meta
	var hasName, hasContent bool
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		switch string(key) {
		case "name":
			m.Name, hasName = string(val), true
		case "content":
			m.Content, hasContent = string(val), true
		}
	}
	return m, hasName && hasContent
}

// capReader reads at most left bytes of r and then reports io.EOF, noting
// whether r had more to give.
type capReader struct {
	r         io.Reader
	left      int64
	truncated bool
	probed    bool
}

// maxProbeReads bounds the reads spent asking r whether it has more bytes
// after the cap, for readers that return (0, nil).
const maxProbeReads = 8

func (c *capReader) Read(b []byte) (int, error) {
	if c.left <= 0 {
		if !c.probed {
			c.probed = true
			var one [1]byte
			for range maxProbeReads {
				n, err := c.r.Read(one[:])
				if n > 0 {
					c.truncated = true
				}
				if n > 0 || err != nil {
					break
				}
			}
		}
		return 0, io.EOF
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.r.Read(b)
	c.left -= int64(n)
	return n, err
}
