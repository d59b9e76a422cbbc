package tester

import (
	"errors"
	"testing"
)

// Issue 27: a robots.txt named by a site's address is that origin's /robots.txt
// (docs/robots-rules.md rule 20); what is not an http(s) URL is refused, with the likely URL.
func TestRobotsURL(t *testing.T) {
	for _, tt := range []struct{ in, want, err string }{
		{"https://example.com/robots.txt", "https://example.com/robots.txt", ""},
		{"https://Example.com", "https://example.com/robots.txt", ""},
		{" http://example.com:8080/ ", "http://example.com:8080/robots.txt", ""},
		{"https://example.com/?x=1", "https://example.com/?x=1", ""},
		{"https://example.com/other.txt", "https://example.com/other.txt", ""},
		{"example.com", "", `"example.com": not an absolute http(s) URL; did you mean https://example.com/robots.txt?`},
		{"example.com/robots.txt", "", `"example.com/robots.txt": not an absolute http(s) URL; did you mean https://example.com/robots.txt?`},
		{"ftp://example.com/robots.txt", "", `"ftp://example.com/robots.txt": not an absolute http(s) URL`},
		{"/robots.txt", "", `"/robots.txt": not an absolute http(s) URL`},
	} {
		got, err := RobotsURL(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("RobotsURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || err.Error() != tt.err || !errors.Is(err, ErrNotRobotsURL)):
			t.Errorf("RobotsURL(%q) error %v; want %q", tt.in, err, tt.err)
		}
	}
}
