package sitemap

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// "Malformed XML after some entries: return what was delivered plus an error
// wrapping ErrMalformed" (the brief). The error names the line.
func TestParseMalformedMidStream(t *testing.T) {
	good := "<url><loc>http://example.com/1</loc></url>\n<url><loc>http://example.com/2</loc></url>\n"
	for _, tc := range []struct {
		name    string
		doc     string
		entries int
		detail  string
	}{
		{"cut inside a tag", "<urlset>\n" + good + "<url><loc>http://example.com/3</lo", 2, "line 4"},
		{"unclosed root", "<urlset>\n" + good, 2, "unexpected EOF"},
		{"unclosed entry", "<urlset>\n" + good + "<url><loc>http://example.com/3</loc>", 2, "unexpected EOF"},
		{"'<' in text", "<urlset>\n" + good + "<url><loc>http://example.com/<3</loc></url></urlset>", 2, "line 4"},
		{"bad name", "<urlset>\n" + good + "<url><1oc>http://example.com/3</1oc></url></urlset>", 2, "line 4"},
		{"stray end tag at top", "<urlset>\n" + good + "</urlset></urlset>", 2, ""}, // parsing stops at the root's end: not an error
		{"invalid UTF-8", "<urlset>\n" + good + "<url><loc>http://example.com/\xff</loc></url></urlset>", 2, "UTF-8"},
		{"end tag closing nothing", "<urlset>\n" + good + "</url></urlset>", 2, "</url> closes no open element"},
		{"XML 1.1", `<?xml version="1.1"?><urlset>` + good + "</urlset>", 0, "1.1"},
		{"no root: declaration only", `<?xml version="1.0"?>`, 0, "no root"},
		{"no root: comment only", `<!-- nothing here -->`, 0, "no root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res, err := parseAll(t, []byte(tc.doc), Options{})
			if len(got) != tc.entries {
				t.Errorf("delivered %q, want %d entries", locs(got), tc.entries)
			}
			if tc.detail == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v (Result %+v), want ErrMalformed", err, res)
			}
			if !strings.Contains(err.Error(), tc.detail) || !strings.HasPrefix(err.Error(), "sitemap: parse: ") {
				t.Errorf("error %q, want it to start \"sitemap: parse: \" and mention %q", err, tc.detail)
			}
		})
	}
}

// A document in UTF-16 is refused (sitemaps.org: UTF-8 only) rather than
// read as a text sitemap of garbage lines.
func TestParseUTF16(t *testing.T) {
	for _, bom := range []string{"\xff\xfe", "\xfe\xff"} {
		_, res, err := parseAll(t, []byte(bom+"<\x00u\x00r\x00l\x00"), Options{})
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "UTF-16") || res.Skipped != 0 {
			t.Errorf("BOM %q: %+v, %v; want ErrMalformed naming UTF-16", bom, res, err)
		}
	}
}

// A syntax error in bytes already read is reported as such even when the
// input also failed later, while the parser was reading ahead.
func TestParseMalformedBeforeReadError(t *testing.T) {
	errNetwork := errors.New("connection reset by peer")
	r := &dataThenError{data: []byte("<urlset><url><loc>http://example.com/</loc></url><1bad/>"), err: errNetwork}
	_, res, err := parseReader(t, r, Options{})
	if !errors.Is(err, ErrMalformed) || errors.Is(err, errNetwork) || res.Entries != 1 {
		t.Errorf("%+v, %v; want 1 entry and ErrMalformed only", res, err)
	}
}

// dataThenError returns all its data and its error from the same Read, as a
// connection that breaks right after a packet does.
type dataThenError struct {
	data []byte
	err  error
}

func (d *dataThenError) Read(p []byte) (int, error) {
	n := copy(p, d.data)
	d.data = d.data[n:]
	if len(d.data) > 0 {
		return n, nil
	}
	return n, d.err
}

// Non-strict XML: a mismatched end tag closes what it skips instead of
// failing the document, so one sloppy entry does not lose the rest.
func TestParseMismatchedEndTag(t *testing.T) {
	doc := "<urlset><url><loc>http://example.com/1</url><url><loc>http://example.com/2</loc></url></urlset>"
	got, _, err := parseAll(t, []byte(doc), Options{})
	if err != nil || len(got) != 2 {
		t.Errorf("%q, %v; want both entries", locs(got), err)
	}
}

// Bad gzip data is malformed, and the error says it came from gunzip; the
// entries decompressed before the damage stand.
func TestParseBadGzip(t *testing.T) {
	text := gz(t, textSitemap(100))
	xmlDoc := gz(t, urlset(100))

	truncated := xmlDoc[:len(xmlDoc)/2]
	badCRC := bytes.Clone(text)
	badCRC[len(badCRC)-5] ^= 0xff // the CRC-32 in the trailer
	corrupt := bytes.Clone(xmlDoc)
	for i := 20; i < 40; i++ {
		corrupt[i] = 0xff
	}

	for _, tc := range []struct {
		name    string
		doc     []byte
		cause   error
		entries func(int) bool
	}{
		{"bad header", []byte{0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3}, gzip.ErrHeader, func(n int) bool { return n == 0 }},
		{"truncated", truncated, io.ErrUnexpectedEOF, func(n int) bool { return n > 0 && n < 100 }},
		{"bad checksum (text reads to the end)", badCRC, gzip.ErrChecksum, func(n int) bool { return n == 100 }},
		{"corrupt deflate data", corrupt, nil, func(n int) bool { return n < 100 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res, err := parseAll(t, tc.doc, Options{})
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "gunzip") {
				t.Fatalf("error %v, want ErrMalformed from gunzip", err)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Errorf("error %v does not wrap %v", err, tc.cause)
			}
			var corrupt flate.CorruptInputError
			if tc.cause == nil && !errors.As(err, &corrupt) && !errors.Is(err, gzip.ErrHeader) {
				t.Errorf("error %v, want a flate.CorruptInputError", err)
			}
			if !res.Gzip || !tc.entries(len(got)) {
				t.Errorf("Gzip %v, %d entries", res.Gzip, len(got))
			}
		})
	}
}

// A failed read is the caller's input failing, not a malformed document: the
// error wraps the reader's error and not ErrMalformed, and entries read
// before it stand. This holds under gzip too.
func TestParseReadError(t *testing.T) {
	errNetwork := errors.New("connection reset by peer")
	xmlDoc := urlset(1000)
	for _, tc := range []struct {
		name string
		r    io.Reader
	}{
		{"at once", iotest.ErrReader(errNetwork)},
		{"xml", io.MultiReader(bytes.NewReader(xmlDoc[:len(xmlDoc)/2]), iotest.ErrReader(errNetwork))},
		{"text", io.MultiReader(bytes.NewReader(textSitemap(10)), iotest.ErrReader(errNetwork))},
		{"xml/gzip", io.MultiReader(bytes.NewReader(gz(t, xmlDoc)[:2000]), iotest.ErrReader(errNetwork))},
		{"one byte at a time", iotest.OneByteReader(io.MultiReader(bytes.NewReader(xmlDoc[:3000]), iotest.ErrReader(errNetwork)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, res, err := parseReader(t, tc.r, Options{})
			if !errors.Is(err, errNetwork) || errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v, want the read error and not ErrMalformed", err)
			}
			if !strings.HasPrefix(err.Error(), "sitemap: parse: read: ") {
				t.Errorf("error %q does not name the read", err)
			}
			if tc.name != "at once" && res.Entries == 0 {
				t.Errorf("no entries delivered before the error")
			}
		})
	}
}

// Input that arrives in small pieces (as from a slow connection) parses the
// same as input read at once.
func TestParseSmallReads(t *testing.T) {
	for name, doc := range map[string][]byte{
		"xml":       []byte(sampleURLSet),
		"text":      []byte("\ufeffhttp://a.example/\r\n\r\nhttp://b.example/\rhttp://c.example/"),
		"xml/gzip":  gz(t, []byte(sampleURLSet)),
		"text/gzip": gz(t, []byte(sampleText)),
	} {
		t.Run(name, func(t *testing.T) {
			want, _, err := parseAll(t, doc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(doc)), iotest.HalfReader(bytes.NewReader(doc)), iotest.DataErrReader(bytes.NewReader(doc))} {
				got, _, err := parseReader(t, r, Options{})
				if err != nil || strings.Join(locs(got), " ") != strings.Join(locs(want), " ") {
					t.Errorf("%T: %q, %v; want %q", r, locs(got), err, locs(want))
				}
			}
		})
	}
}

// Reading stops at the end of the root element (package documentation,
// "XML tolerance"): what follows it is never read, so trailing junk and even
// a damaged gzip trailer after a complete document are not errors.
func TestParseStopsAtRootEnd(t *testing.T) {
	doc := []byte(sampleURLSet)
	badCRC := gz(t, doc)
	badCRC[len(badCRC)-5] ^= 0xff
	for name, input := range map[string][]byte{
		"trailing junk":     append(bytes.Clone(doc), "<<<garbage & more \xff"...),
		"second root":       append(bytes.Clone(doc), "<urlset><url><loc>http://example.com/extra</loc></url></urlset>"...),
		"bad gzip checksum": badCRC,
	} {
		got, _, err := parseAll(t, input, Options{})
		if err != nil || len(got) != len(sampleURLSetEntries) {
			t.Errorf("%s: %d entries, %v; want %d, no error", name, len(got), err, len(sampleURLSetEntries))
		}
	}
}
