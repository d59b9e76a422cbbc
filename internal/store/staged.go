package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"unicode/utf8"
)

// StagedLink is one outgoing link of a staged document, as stores keep it until their indexer
// folds it into the link graph: the target's ID (IDOf) and the anchor text.
type StagedLink struct {
	To       int64
	Anchor   string
	Fragment bool // Link.Fragment
}

// ErrBadLinks reports staged links that do not decode: the bytes were not written by EncodeLinks.
var ErrBadLinks = errors.New("staged links are corrupt")

// EncodeLinks is the one format every store stages links in: a varint count, then per link the
// target's ID as a varint and the anchor, cut at MaxAnchorBytes, as a length-prefixed string.
// Links with the same target and anchor are kept once. clean, when not nil, rewrites each anchor
// first (a store whose text type refuses some bytes). When a link has Fragment set, a bitmap
// follows the links, one bit per link in order (an older encoding has none: no fragments). It
// returns nil for no links.
func EncodeLinks(links []Link, clean func(string) string) []byte {
	if len(links) == 0 {
		return nil
	}
	seen := make(map[StagedLink]bool, len(links))
	var body []byte
	var frags []byte
	n := 0
	for _, l := range links {
		anchor := l.Anchor
		if clean != nil {
			anchor = clean(anchor)
		}
		k := StagedLink{To: IDOf(l.To), Anchor: CutUTF8(anchor, MaxAnchorBytes), Fragment: l.Fragment}
		if seen[k] {
			continue
		}
		seen[k] = true
		if l.Fragment {
			for len(frags) <= n/8 {
				frags = append(frags, 0)
			}
			frags[n/8] |= 1 << (n % 8)
		}
		n++
		body = binary.AppendVarint(body, k.To)
		body = binary.AppendUvarint(body, uint64(len(k.Anchor)))
		body = append(body, k.Anchor...)
	}
	if frags != nil {
		for len(frags) < (n+7)/8 {
			frags = append(frags, 0)
		}
		body = append(body, frags...)
	}
	return append(binary.AppendUvarint(make([]byte, 0, len(body)+4), uint64(n)), body...)
}

// DecodeLinks reverses EncodeLinks.
func DecodeLinks(b []byte) ([]StagedLink, error) {
	if len(b) == 0 {
		return nil, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, ErrBadLinks
	}
	b = b[k:]
	out := make([]StagedLink, 0, n)
	for range n {
		to, k := binary.Varint(b)
		if k <= 0 {
			return nil, ErrBadLinks
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, ErrBadLinks
		}
		b = b[k:]
		out = append(out, StagedLink{To: to, Anchor: string(b[:l])})
		b = b[l:]
	}
	if len(b) == 0 {
		return out, nil
	}
	// The fragment bitmap: written only with a bit set, and no bit past the last link.
	if len(b) != (len(out)+7)/8 || b[len(b)-1]>>(len(out)-8*(len(b)-1)) != 0 || !slices.ContainsFunc(b, func(c byte) bool { return c != 0 }) {
		return nil, ErrBadLinks
	}
	for i := range out {
		out[i].Fragment = b[i/8]&(1<<(i%8)) != 0
	}
	return out, nil
}

// CutUTF8 cuts s to at most n bytes without splitting a UTF-8 sequence; bytes of s that are not
// valid UTF-8 are kept as they are (they are cut like any byte).
func CutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
