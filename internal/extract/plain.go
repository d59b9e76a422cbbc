package extract

import (
	"io"
	"unicode/utf8"
)

// plainChunkBytes is the size of the pieces a text/plain body in a legacy
// encoding is decoded in; it bounds PlainText's working memory beyond the
// text it keeps.
const plainChunkBytes = 32 << 10

// PlainText extracts a Document from a text/plain response body: Text is
// the decoded body, whitespace collapsed as for HTML, capped at
// Options.MaxTextBytes; Charset says how it was decoded (byte order mark,
// then the charset parameter of contentType, then UTF-8 if the body is
// valid UTF-8 with some non-ASCII character, else windows-1252). Only
// MaxTextBytes applies; the other fields stay empty.
//
// Decoding stops once the cap is reached, so a large body costs no more
// than the text kept. PlainText reads body and does not retain it; it is
// safe for concurrent use.
func PlainText(body []byte, contentType string, opts Options) Document {
	lim := opts.limits()
	dec := plainDecoding(body, contentType)
	t := textBuf{max: lim.text}
	if dec.enc == nil {
		t.write(body[dec.bom:])
	} else {
		writeDecoded(&t, dec.reader(body))
	}
	doc := Document{Text: t.String(), Charset: dec.name}
	if t.full {
		doc.Truncated |= CapText
	}
	return doc
}

// writeDecoded copies r, a stream of valid UTF-8 from a decoder, into t
// until t is full or r ends, passing t only whole characters.
func writeDecoded(t *textBuf, r io.Reader) {
	buf := make([]byte, plainChunkBytes)
	carry := 0 // bytes of an incomplete character kept at buf's start
	for !t.full {
		n, err := r.Read(buf[carry:])
		n += carry
		end := n
		if err == nil {
			end = completeRunes(buf[:n])
		}
		t.write(buf[:end])
		carry = copy(buf, buf[end:n])
		if err != nil {
			return // io.EOF, or a decoder error: keep what was decoded
		}
	}
}

// completeRunes returns the length of the longest prefix of p that does not
// end inside a character.
func completeRunes(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}
