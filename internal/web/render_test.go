package web

import "testing"

// Issue 27: a rule or URL may wrap after a path segment, never inside a word, and its text is
// escaped.
func TestBreaks(t *testing.T) {
	for in, want := range map[string]string{
		"Disallow: /a/b/c":              "Disallow: /a/<wbr>b/<wbr>c",
		"Disallow: /*.pdf":              "Disallow: /*.pdf",
		"https://h.test/x/y?a=1&b=<i>":  "https://h.test/<wbr>x/<wbr>y?<wbr>a=1&amp;<wbr>b=&lt;i&gt;",
		"/private/":                     "/private/<wbr>",
		"line 2: Allow: /files//shared": "line 2: Allow: /files//<wbr>shared",
		"":                              "",
	} {
		if got := string(breaks(in)); got != want {
			t.Errorf("breaks(%q) = %q, want %q", in, got, want)
		}
	}
}
