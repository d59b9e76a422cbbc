package extract

import (
	"io"

	"golang.org/x/net/html"
)

// Buffers is the memory one HTML extraction leaves for the next (Options.Buffers): the byte
// buffers its text, title, headings and anchor text grow in, its list of links, and its HTML
// tokenizer with the tokenizer's 4 KiB buffer, so that a crawler extracting page after page does
// not make them from nothing on every page (issue 26: the growth was a third of the bytes an
// extraction allocated, and the tokenizer 4.6 KB a page). Nothing of a Document is kept
// in it: HTML copies the text out before it returns. A Buffers serves one HTML call at a time;
// the zero value is ready.
type Buffers struct {
	text, title, headings, anchor, alt, scratch []byte
	links                                       []pendingLink
	tok                                         *tokenizer // nil until the first page
}

// MaxKeptBufferBytes bounds what a Buffers keeps: a buffer one page grew past it is dropped
// rather than kept for the next, so that an idle Buffers holds at most a few times this much
// whatever the largest page was (a text of Options.MaxTextBytes, 1 MiB by default, is not).
const MaxKeptBufferBytes = 64 << 10

// maxKeptLinks bounds the list of links a Buffers keeps, as MaxKeptBufferBytes does its bytes.
const maxKeptLinks = 1024

// tokenizer returns b's tokenizer reset to read r, made on first use; with no Buffers (b nil),
// a new one.
func (b *Buffers) tokenizer(r io.Reader) *html.Tokenizer {
	if b == nil {
		return html.NewTokenizer(r)
	}
	if b.tok == nil {
		b.tok = newTokenizer()
	}
	return b.tok.start(r)
}

// lend hands b's buffers to x, emptied, with x's caps. The tokenizer stays in b: x already reads
// with it.
func (b *Buffers) lend(x *extractor) {
	x.text.b, x.title.b, x.headings.b = b.text[:0], b.title[:0], b.headings[:0]
	x.anchor.b, x.alt.b, x.scratch.b = b.anchor[:0], b.alt[:0], b.scratch[:0]
	x.links = b.links[:0]
	*b = Buffers{tok: b.tok}
}

// keep takes x's buffers back once its Document is built, each unless it grew past the bound.
// The links are cleared so that the kept list holds no strings of the last page.
func (b *Buffers) keep(x *extractor) {
	b.text, b.title, b.headings = kept(x.text.b), kept(x.title.b), kept(x.headings.b)
	b.anchor, b.alt, b.scratch = kept(x.anchor.b), kept(x.alt.b), kept(x.scratch.b)
	if cap(x.links) <= maxKeptLinks {
		clear(x.links)
		b.links = x.links[:0]
	}
	switch {
	case b.tok == nil:
	case x.longestTag > maxKeptTagBytes:
		b.tok = nil // its attribute-name map may have grown to that tag's attributes
	default:
		b.tok.release()
	}
}

// maxKeptTagBytes bounds the tokenizer a Buffers keeps: the tokenizer's map of one tag's
// attribute names keeps the size the tag with the most attributes gave it, so a page with a start
// tag longer than this (up to half as many attributes: a map of some 100 KB) does not leave its
// tokenizer for the next page.
const maxKeptTagBytes = 4 << 10

// kept is buf emptied, or nil when it grew past MaxKeptBufferBytes.
func kept(buf []byte) []byte {
	if cap(buf) > MaxKeptBufferBytes {
		return nil
	}
	return buf[:0]
}
