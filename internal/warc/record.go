package warc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
)

// Type is a WARC record type (WARC 1.1 section 6).
type Type string

// The record types this package writes.
const (
	TypeWarcinfo Type = "warcinfo"
	TypeRequest  Type = "request"
	TypeResponse Type = "response"
	TypeRevisit  Type = "revisit"
)

// Profile is the WARC-Profile of a revisit record (WARC 1.1 section 6.7).
type Profile string

// The revisit profiles of WARC 1.1.
const (
	// ProfileServerNotModified: the server answered a conditional request
	// with 304 Not Modified. The record block is the 304 response.
	ProfileServerNotModified Profile = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
	// ProfileIdenticalPayloadDigest: the payload was downloaded again and
	// has the digest of an earlier record. The block holds only the status
	// line and header fields; WARC-Payload-Digest names the payload.
	ProfileIdenticalPayloadDigest Profile = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
)

// Truncation is a WARC-Truncated reason: why a block holds less than the
// whole message (WARC 1.1 section 5.13).
type Truncation string

// The reasons of WARC 1.1; the empty Truncation means the block is whole.
const (
	TruncatedNone        Truncation = ""
	TruncatedLength      Truncation = "length"
	TruncatedTime        Truncation = "time"
	TruncatedDisconnect  Truncation = "disconnect"
	TruncatedUnspecified Truncation = "unspecified"
)

// Field is one named field (a WARC header field or a warcinfo line).
type Field struct {
	Name, Value string
}

// Content types of record blocks.
const (
	contentTypeRequest  = "application/http;msgtype=request"
	contentTypeResponse = "application/http;msgtype=response"
	contentTypeFields   = "application/warc-fields"
)

// dateLayout is WARC-Date with microseconds, which WARC 1.1 allows; records
// written in the same second still sort in order.
const dateLayout = "2006-01-02T15:04:05.000000Z"

// formatDate returns t as a WARC-Date (UTC).
func formatDate(t time.Time) string { return t.UTC().Format(dateLayout) }

// newRecordID returns a fresh WARC-Record-ID, "<urn:uuid:...>" with a
// random (version 4) UUID.
func newRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:]) // crypto/rand.Read never fails (Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return "<urn:uuid:" + string(b[:]) + ">"
}

// Digest returns the WARC digest of b: "sha1:" and the base32 of its
// SHA-1, as WARC-Block-Digest and WARC-Payload-Digest carry it.
func Digest(b []byte) string {
	sum := sha1.Sum(b)
	var enc [32]byte // base32 of 20 bytes is 32 characters, no padding
	base32.StdEncoding.Encode(enc[:], sum[:])
	return "sha1:" + string(enc[:])
}

// httpPayload returns the payload of an HTTP message block: the bytes after
// the blank line that ends the header section, transfer coding included
// (the message body as it was sent, which is what Heritrix and warcio
// digest). ok is false when the block holds no complete header section.
func httpPayload(block []byte) (payload []byte, ok bool) {
	if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 {
		return block[i+4:], true
	}
	if i := bytes.Index(block, []byte("\n\n")); i >= 0 { // bare-LF servers
		return block[i+2:], true
	}
	return nil, false
}

// httpHead returns the status (or request) line and header section of an
// HTTP message block, blank line included, or the whole block when it has
// no complete header section.
func httpHead(block []byte) []byte {
	p, ok := httpPayload(block)
	if !ok {
		return block
	}
	return block[:len(block)-len(p)]
}

// PayloadDigest returns the WARC-Payload-Digest a response record of
// response (a whole HTTP response as received) would carry, and false when
// response has no complete header section. A caller compares it with the
// digest stored from an earlier fetch to decide on an
// identical-payload-digest revisit.
func PayloadDigest(response []byte) (string, bool) {
	p, ok := httpPayload(response)
	if !ok {
		return "", false
	}
	return Digest(p), true
}

// checkValue refuses a field value that would break the record header:
// a control character (CR and LF above all) would end the field early.
func checkValue(name, v string) error {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("warc: %s %q: control character %#x", name, v, c)
		}
	}
	return nil
}

// recordEnd ends every record: the block is followed by two CRLFs.
const recordEnd = "\r\n\r\n"

// appendHeader appends the header of a WARC record whose block is
// blockLen bytes long to dst: version line, fields, Content-Length and the
// blank line.
func appendHeader(dst []byte, fields []Field, blockLen int) []byte {
	dst = append(dst, "WARC/1.1\r\n"...)
	for _, f := range fields {
		dst = append(dst, f.Name...)
		dst = append(dst, ": "...)
		dst = append(dst, f.Value...)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(blockLen), 10)
	return append(dst, "\r\n\r\n"...)
}
