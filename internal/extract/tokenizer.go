package extract

import (
	"io"

	"golang.org/x/net/html"
)

// tokenizer is an html.Tokenizer that a Buffers carries from page to page (issue 26: a new
// Tokenizer allocates a 4 KiB buffer, a map and itself for every page, a ninth of the bytes a
// crawl of small pages allocated). An html.Tokenizer has no Reset, so the one in use is
// overwritten with fresh, a copy of a Tokenizer that never read: every field of a page's
// tokenizer starts as a new one's would, and the 4 KiB buffer and the attribute-name map (which
// the tokenizer clears at every tag) are the same ones each time. A buffer the tokenizer grew
// past them for a long token is dropped with the page.
type tokenizer struct {
	z     html.Tokenizer // the tokenizer of the page being read
	fresh html.Tokenizer // never used: the state every page starts from
	src   pageReader     // what z and fresh read: the page being read
}

// newTokenizer returns a tokenizer with nothing to read yet.
func newTokenizer() *tokenizer {
	t := new(tokenizer)
	t.fresh = *html.NewTokenizer(&t.src)
	return t
}

// start returns t's tokenizer reset to read r from its beginning, as html.NewTokenizer(r)
// would.
func (t *tokenizer) start(r io.Reader) *html.Tokenizer {
	t.src.r = r
	t.z = t.fresh
	return &t.z
}

// release drops t's references to the page just read, so that a kept tokenizer holds no body.
func (t *tokenizer) release() {
	t.src.r = nil
	t.z = t.fresh
}

// pageReader reads the page a tokenizer is on; it lets one html.Tokenizer's reader change.
type pageReader struct{ r io.Reader }

// Read reads from the current page.
func (p *pageReader) Read(b []byte) (int, error) { return p.r.Read(b) }
