package extract

import "testing"

// Protocol text is matched with ASCII rules only (common rules; docs/design.md
// "Known traps"): Unicode spaces are not separators and are not trimmed.
func TestHasTokenASCIIOnly(t *testing.T) {
	tests := []struct {
		list, tok string
		want      bool
	}{
		{"nofollow", "nofollow", true},
		{"  NoFollow\tugc ", "nofollow", true},
		{"noopener\nnofollow", "nofollow", true},
		{"nofollowx", "nofollow", false},
		{"no follow", "nofollow", false},
		{"nofollow\u00a0ugc", "nofollow", false}, // U+00A0 is not HTML whitespace
		{"\u00a0nofollow", "nofollow", false},
		{"", "nofollow", false},
	}
	for _, tc := range tests {
		if got := hasToken(tc.list, tc.tok); got != tc.want {
			t.Errorf("hasToken(%q, %q) = %v, want %v", tc.list, tc.tok, got, tc.want)
		}
	}
}

func TestHrefTrimmingASCIIOnly(t *testing.T) {
	// The URL parser strips C0 controls and spaces, not U+00A0: a leading
	// no-break space is part of the relative path.
	doc := mustHTML(t, "<a href=\"\x01 \u00a0x\">x</a>", Options{})
	if len(doc.Links) != 1 || doc.Links[0].URL != "https://example.com/dir/%C2%A0x" {
		t.Errorf("Links = %+v, want the NBSP kept and escaped", doc.Links)
	}
}

func TestCapString(t *testing.T) {
	tests := []struct {
		c    Cap
		want string
	}{
		{0, ""},
		{CapText, "text"},
		{CapText | CapLinks | CapToken, "text,links,token"},
		{CapAnchor | CapTitle | CapMetas, "anchor,title,metas"},
	}
	for _, tc := range tests {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("Cap(%d).String() = %q, want %q", tc.c, got, tc.want)
		}
	}
	if c := CapText | CapLinks; !c.Has(CapText) || !c.Has(CapText|CapLinks) || c.Has(CapText|CapTitle) {
		t.Errorf("Has is not a subset test")
	}
}
