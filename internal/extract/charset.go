package extract

import (
	"bytes"
	"io"
	"mime"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// decoding says how a body becomes UTF-8.
type decoding struct {
	name string            // WHATWG name of the encoding
	enc  encoding.Encoding // nil for UTF-8: the bytes are used as they are
	bom  int               // length of the byte order mark to skip
}

// Names of the encodings the detection itself refers to.
const (
	utf8Name        = "utf-8"
	windows1252Name = "windows-1252"
)

// htmlDecoding decides the encoding of an HTML body: byte order mark,
// Content-Type charset, <meta> in the first 1024 bytes, sniff
// (charset.DetermineEncoding), then the UTF-8 override the package comment
// describes.
func htmlDecoding(body []byte, contentType string) decoding {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain && name == windows1252Name && isUTF8Text(body) {
		enc, name = nil, utf8Name
	}
	return newDecoding(body, enc, name)
}

// plainDecoding decides the encoding of a text/plain body: byte order mark,
// Content-Type charset, UTF-8 when the body is valid UTF-8 with some
// non-ASCII character, else windows-1252. Unlike HTML there is no <meta>
// scan: in a text file, "<meta charset=...>" is text.
func plainDecoding(body []byte, contentType string) decoding {
	if enc, name := bomEncoding(body); enc != nil {
		return newDecoding(body, enc, name)
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if enc, name := charset.Lookup(params["charset"]); enc != nil {
			return newDecoding(body, enc, name)
		}
	}
	if isUTF8Text(body) {
		return newDecoding(body, nil, utf8Name)
	}
	enc, name := charset.Lookup(windows1252Name)
	return newDecoding(body, enc, name)
}

// The byte order marks, and the encodings they select whatever else is
// declared (WHATWG Encoding, "BOM sniff").
var boms = []struct {
	bom  []byte
	name string
}{
	{[]byte{0xef, 0xbb, 0xbf}, utf8Name},
	{[]byte{0xfe, 0xff}, "utf-16be"},
	{[]byte{0xff, 0xfe}, "utf-16le"},
}

// bomEncoding returns the encoding body's byte order mark selects, or nil.
func bomEncoding(body []byte) (encoding.Encoding, string) {
	for _, b := range boms {
		if bytes.HasPrefix(body, b.bom) {
			return charset.Lookup(b.name)
		}
	}
	return nil, ""
}

// newDecoding builds the decoding for an encoding chosen for body, noting
// the byte order mark to skip when body starts with that encoding's.
func newDecoding(body []byte, enc encoding.Encoding, name string) decoding {
	d := decoding{name: name, enc: enc}
	if name == utf8Name {
		d.enc = nil
	}
	for _, b := range boms {
		if b.name == name && bytes.HasPrefix(body, b.bom) {
			d.bom = len(b.bom)
		}
	}
	return d
}

// reader returns body, without its byte order mark, decoded to UTF-8 as a
// stream. For UTF-8 it is the bytes themselves, invalid sequences and all:
// the extractor replaces those in what it keeps.
func (d decoding) reader(body []byte) io.Reader {
	r := bytes.NewReader(body[d.bom:])
	if d.enc == nil {
		return r
	}
	return transform.NewReader(r, d.enc.NewDecoder())
}

// isUTF8Text reports whether body is valid UTF-8 and not plain ASCII. An
// incomplete character at the very end is allowed: a body cut by a size
// limit may end in the middle of one.
func isUTF8Text(body []byte) bool {
	for i := len(body) - 1; i >= 0 && i >= len(body)-utf8.UTFMax; i-- {
		if utf8.RuneStart(body[i]) {
			if !utf8.FullRune(body[i:]) {
				body = body[:i]
			}
			break
		}
	}
	for i, c := range body {
		if c >= utf8.RuneSelf {
			return utf8.Valid(body[i:])
		}
	}
	return false // plain ASCII
}
