package store

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The staged-link format is shared by every store: what one encodes, DecodeLinks reads back,
// once per (target, anchor), with anchors cut at MaxAnchorBytes on a character boundary.
func TestStagedLinksRoundTrip(t *testing.T) {
	long := strings.Repeat("é", MaxAnchorBytes) // 2 bytes each: the cut falls inside one
	links := []Link{
		{FromID: 1, To: "http://a.test/x", Anchor: "first"},
		{FromID: 1, To: "http://a.test/x", Anchor: "first"}, // the same: kept once
		{FromID: 1, To: "http://a.test/x", Anchor: "second"},
		{FromID: 1, To: "http://b.test/", Anchor: long},
	}
	got, err := DecodeLinks(EncodeLinks(links, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []StagedLink{
		{To: IDOf("http://a.test/x"), Anchor: "first"}, {To: IDOf("http://a.test/x"), Anchor: "second"},
		{To: IDOf("http://b.test/"), Anchor: CutUTF8(long, MaxAnchorBytes)},
	}
	if !slices.Equal(got, want) {
		t.Errorf("round trip = %+v, want %+v", got, want)
	}
	if a := got[2].Anchor; len(a) > MaxAnchorBytes || !strings.HasPrefix(long, a) || len(a)%2 != 0 {
		t.Errorf("anchor cut to %d bytes, mid-character or past MaxAnchorBytes", len(a))
	}
	cleaned, _ := DecodeLinks(EncodeLinks(links[:1], strings.ToUpper))
	if cleaned[0].Anchor != "FIRST" {
		t.Errorf("clean not applied: %q", cleaned[0].Anchor)
	}
	if l, err := DecodeLinks(EncodeLinks(nil, nil)); l != nil || err != nil {
		t.Errorf("no links: %v, %v", l, err)
	}
	enc := EncodeLinks(links, nil)
	for _, bad := range [][]byte{enc[:len(enc)-1], append(slices.Clone(enc), 0), {0xff}} {
		if _, err := DecodeLinks(bad); !errors.Is(err, ErrBadLinks) {
			t.Errorf("DecodeLinks(%x...) = %v, want ErrBadLinks", bad[:min(len(bad), 4)], err)
		}
	}
}

// Issue 11: a link to a fragment (page#section) keeps that fact through staging, for every store;
// a trailing bitmap that is empty or names links past the last is corrupt.
func TestStagedLinksFragment(t *testing.T) {
	links := []Link{{To: "http://a.test/x", Anchor: "page"}, {To: "http://a.test/x", Anchor: "Build Changes", Fragment: true}}
	for i := range 9 {
		links = append(links, Link{To: "http://a.test/y", Anchor: strings.Repeat("z", i)})
	}
	enc := EncodeLinks(links, nil)
	got, err := DecodeLinks(enc)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range got {
		if l.Fragment != (i == 1) {
			t.Errorf("link %d (%q): Fragment = %v", i, l.Anchor, l.Fragment)
		}
	}
	for _, bad := range [][]byte{append(slices.Clone(enc), 0), append(EncodeLinks(links[:2], nil)[:len(EncodeLinks(links[:2], nil))-1], 0x06)} {
		if _, err := DecodeLinks(bad); !errors.Is(err, ErrBadLinks) {
			t.Errorf("DecodeLinks(...%x) = %v, want ErrBadLinks", bad[len(bad)-1:], err)
		}
	}
}

// CutUTF8 never drops more than the character it would split, even when s holds invalid bytes
// elsewhere (a page's text cut at MaxIndexedTextBytes must keep its text).
func TestCutUTF8(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"}, {"abcdef", 3, "abc"}, {"aé", 2, "a"}, {"\xffabcdef", 4, "\xffabc"},
	} {
		if got := CutUTF8(c.s, c.n); got != c.want {
			t.Errorf("CutUTF8(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
