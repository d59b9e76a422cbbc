package sitemap

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// bufSize is the size of the two read buffers of a Parse call: one before
// gzip detection, one after decompression.
const bufSize = 32 << 10

// Byte signatures recognised at the start of the input.
const (
	gzipMagic  = "\x1f\x8b"
	utf8BOM    = "\xef\xbb\xbf"
	utf16BOMLE = "\xff\xfe"
	utf16BOMBE = "\xfe\xff"
)

// errStopped ends a parse that a limit cut; Parse reports it as a cut, not
// an error.
var errStopped = errors.New("sitemap: stopped at a limit")

// Parse reads one sitemap document from r and calls fn for each valid entry,
// in document order, on the calling goroutine. It returns when the document
// ends, a limit cuts it, fn returns an error, or the input fails.
//
// The format (urlset, sitemapindex or text, gzip-compressed or not) is
// detected from the bytes; see the package documentation. Parse holds at
// most one entry in memory, and memory use is bounded by opts (see
// [Options]), not by the size of the input. For XML it stops reading at the
// end of the root element, so nothing after it is checked.
//
// fn may be nil, to count entries without receiving them. If fn returns an
// error, Parse stops and returns that error wrapped.
//
// The returned Result describes what was read even when the error is not
// nil; entries delivered before an error stand. The error is nil for a
// complete document and for one cut by a limit (Result.Cut); otherwise it
// wraps [ErrMalformed] for bad bytes, [ErrNotSitemap] for XML that is not a
// sitemap, the callback's error, or the error of reading r. Parse does not
// close r.
//
// Parse is safe for concurrent use: calls share nothing.
func Parse(r io.Reader, opts Options, fn func(Entry) error) (Result, error) {
	p := &parser{
		opts: opts.resolved(),
		fn:   fn,
		src:  &sourceReader{r: r},
	}
	err := p.run()
	return p.res, p.finish(err)
}

// parser is the state of one Parse call.
type parser struct {
	opts Options // resolved: no zero fields
	fn   func(Entry) error
	res  Result

	src *sourceReader
	br  *bufio.Reader // the decoded document

	line field // the current line of a text sitemap
}

// run sets up the input stack, detects the format and parses.
func (p *parser) run() error {
	raw := bufio.NewReaderSize(p.src, bufSize)
	var decoded io.Reader = raw
	magic, err := raw.Peek(len(gzipMagic))
	if err != nil && err != io.EOF {
		return err
	}
	if string(magic) == gzipMagic {
		p.res.Gzip = true
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return fmt.Errorf("gunzip: %w", err)
		}
		decoded = gunzipReader{zr}
	}
	p.br = bufio.NewReaderSize(&decodedLimit{r: decoded, left: p.opts.MaxDecodedBytes}, bufSize)

	first, err := p.skipPrelude()
	switch {
	case err == io.EOF:
		return nil // empty: Kind Unknown, no entries
	case err != nil:
		return err
	case first == '<':
		return p.parseXML()
	default:
		return p.parseText()
	}
}

// skipPrelude skips a UTF-8 byte order mark and leading ASCII whitespace and
// returns the first byte after them, unread. A UTF-16 byte order mark is
// refused: sitemaps are UTF-8, and read as UTF-8 such a document would only
// be a pile of skipped lines.
func (p *parser) skipPrelude() (byte, error) {
	b, _ := p.br.Peek(len(utf8BOM))
	start := string(b)
	switch {
	case start == utf8BOM:
		p.br.Discard(len(utf8BOM))
	case strings.HasPrefix(start, utf16BOMLE), strings.HasPrefix(start, utf16BOMBE):
		return 0, fmt.Errorf("%w: UTF-16 (sitemaps are UTF-8)", ErrMalformed)
	}
	for {
		if _, err := p.br.Peek(1); err != nil {
			return 0, err
		}
		buf, _ := p.br.Peek(p.br.Buffered())
		i := 0
		for i < len(buf) && isSpace(buf[i]) {
			i++
		}
		p.br.Discard(i)
		if i < len(buf) {
			return buf[i], nil
		}
	}
}

// finish turns the error that ended run into Parse's error, recording a cut
// on the way.
func (p *parser) finish(err error) error {
	var cb callbackError
	switch {
	case err == nil || errors.Is(err, errStopped):
		return nil
	case errors.As(err, &cb):
		return fmt.Errorf("sitemap: parse: callback: %w", cb.err)
	case errors.Is(err, errDecodedLimit):
		p.cut(sizeString(p.opts.MaxDecodedBytes) + " decoded")
		return nil
	case errors.Is(err, errTokenLimit):
		p.cut(sizeString(int64(p.opts.MaxTokenBytes)) + " token")
		return nil
	case p.src.err != nil && errors.Is(err, p.src.err):
		// The input failed. (A read error recorded while reading ahead does
		// not count if the parser stopped earlier, at bad bytes it had.)
		return fmt.Errorf("sitemap: parse: read: %w", p.src.err)
	case errors.Is(err, ErrMalformed), errors.Is(err, ErrNotSitemap):
		return fmt.Errorf("sitemap: parse: %w", err)
	default:
		return fmt.Errorf("sitemap: parse: %w: %w", ErrMalformed, err)
	}
}

// cut records that a limit stopped the document.
func (p *parser) cut(reason string) {
	p.res.Cut, p.res.CutReason = true, reason
}

// full reports that the entry limit is reached: one more entry would pass it.
func (p *parser) full() bool {
	return p.res.Entries+p.res.Skipped >= p.opts.MaxEntries
}

// stopFull records an entry-limit cut and returns errStopped.
func (p *parser) stopFull() error {
	p.cut(fmt.Sprintf("%d entries", p.opts.MaxEntries))
	return errStopped
}

// take delivers e with the location collected in loc if that location is
// acceptable, and counts e as skipped otherwise. It resets loc.
func (p *parser) take(loc *field, e Entry) error {
	defer loc.reset()
	if loc.tooLong() {
		p.res.Skipped++
		return nil
	}
	e.Loc = loc.value()
	if checkLoc(e.Loc) != nil {
		p.res.Skipped++
		return nil
	}
	p.res.Entries++
	if p.fn == nil {
		return nil
	}
	if err := p.fn(e); err != nil {
		return callbackError{err}
	}
	return nil
}

// callbackError marks an error returned by the caller's callback on its way
// out of the parser.
type callbackError struct{ err error }

func (c callbackError) Error() string { return c.err.Error() }

// gunzipReader names decompression failures as such in error messages; it
// passes io.EOF through untouched.
type gunzipReader struct{ r io.Reader }

func (g gunzipReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gunzip: %w", err)
	}
	return n, err
}
