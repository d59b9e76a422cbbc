package sitemap

import (
	"bufio"
	"io"
)

// parseText reads a text sitemap: one URL per line, lines ending at LF, CR
// or CRLF. Each line is trimmed of ASCII whitespace; blank lines are not
// entries (so a CRLF may count as two line ends: the empty line between them
// is blank). A line is never held beyond MaxURLLength bytes: a longer one is
// read through and counted as skipped.
func (p *parser) parseText() error {
	p.res.Kind = Text
	p.line.max = p.opts.MaxURLLength
	for {
		chunk, err := p.br.ReadSlice('\n')
		for len(chunk) > 0 {
			i := indexLineEnd(chunk)
			if i < 0 {
				p.line.add(chunk)
				break
			}
			p.line.add(chunk[:i])
			chunk = chunk[i+1:]
			if err := p.endLine(); err != nil {
				return err
			}
		}
		if !p.line.empty() && p.full() {
			// A line has begun past the entry limit: stop now rather than
			// read what may be a very long line to its end.
			return p.stopFull()
		}
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return p.endLine()
		default:
			return err
		}
	}
}

// endLine handles the line collected in p.line.
func (p *parser) endLine() error {
	if p.line.empty() {
		p.line.reset()
		return nil
	}
	if p.full() {
		return p.stopFull()
	}
	return p.take(&p.line, Entry{Kind: Text, Priority: -1})
}

// indexLineEnd returns the index of the first CR or LF in b, or -1.
func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\r' || c == '\n' {
			return i
		}
	}
	return -1
}
