package store

import (
	"net/http"
	"slices"
	"strings"
)

// Limits on the response header a store keeps with a page (issue 10: `export --documents`).
// A header past them is cut, never refused: the fields are kept in name order, each value whole
// or not at all, until either limit is reached.
const (
	MaxHeaderFields = 100      // header values kept for one page
	MaxHeaderBytes  = 16 << 10 // bytes of "Name: value\n" lines kept for one page
)

// EncodeHeader is the one format every store keeps a page's response header in: lines of
// "Name: value\n", names in canonical form and sorted, values of one name in the order
// received, cut at MaxHeaderFields values and MaxHeaderBytes bytes. Values holding a CR or LF
// (which net/http never delivers) are left out. It returns nil for an empty header.
func EncodeHeader(h http.Header) []byte {
	if len(h) == 0 {
		return nil
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	var b []byte
	fields := 0
	for _, name := range names {
		key := http.CanonicalHeaderKey(name)
		for _, v := range h[name] {
			if strings.ContainsAny(v, "\r\n") || strings.ContainsAny(key, "\r\n:") {
				continue
			}
			if fields == MaxHeaderFields || len(b)+len(key)+len(v)+3 > MaxHeaderBytes {
				return b
			}
			b = append(append(append(append(b, key...), ": "...), v...), '\n')
			fields++
		}
	}
	return b
}

// DecodeHeader reverses EncodeHeader. It returns an empty, non-nil header for no bytes.
func DecodeHeader(b []byte) http.Header {
	h := http.Header{}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		h[name] = append(h[name], value)
	}
	return h
}
