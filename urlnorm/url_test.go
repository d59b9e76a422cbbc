package urlnorm

import "testing"

// TestOriginSeedExamples: docs/robots-rules.md rule 20 and seed 000's
// examples. "The robots.txt file at http://www.example.com/robots.txt only
// applies to urls starting with http://www.example.com/. It will not apply to
// any urls starting with: https://www.example.com/, http://subdomain.example.com/,
// or http://www.example.com:8080/."
func TestOriginSeedExamples(t *testing.T) {
	// Seed 000: for http://www.example.com/dogs/barking.html, Mandelbot looks
	// for http://www.example.com/robots.txt.
	page := mustParse(t, "http://www.example.com/dogs/barking.html")
	if got := page.RobotsURL(); got != "http://www.example.com/robots.txt" {
		t.Errorf("RobotsURL = %q", got)
	}
	robots := mustParse(t, "http://www.example.com/robots.txt")
	if robots.RobotsURL() != robots.String() {
		t.Errorf("robots.txt's own RobotsURL = %q", robots.RobotsURL())
	}

	tests := []struct {
		url  string
		same bool
	}{
		{"http://www.example.com/", true},
		{"http://www.example.com/dogs/barking.html?x=1#top", true},
		{"https://www.example.com/", false},            // other protocol
		{"http://subdomain.example.com/", false},       // other host
		{"http://www.example.com:8080/", false},        // other port
		{"http://example.com/", false},                 // the parent domain is another host
		{"http://www.example.com:80/x", true},          // default port folded
		{"HTTP://WWW.EXAMPLE.COM/x", true},             // case folded
		{"http://www.example.com./x", true},            // root dot dropped
		{"http://user:pw@www.example.com/x", true},     // user info is not part of an origin
		{"http://www.example.com:443/", false},         // 443 is not http's default
		{"https://www.example.com:80/", false},         // nor 80 https's
		{"http://www.example.com\\dogs\\x.html", true}, // backslashes are slashes
	}
	for _, tt := range tests {
		u := mustParse(t, tt.url)
		if same := u.Origin() == robots.Origin(); same != tt.same {
			t.Errorf("%s: origin %q, same as %q = %v, want %v", tt.url, u.Origin(), robots.Origin(), same, tt.same)
		}
		if same := u.RobotsURL() == robots.String(); same != tt.same {
			t.Errorf("%s: RobotsURL %q", tt.url, u.RobotsURL())
		}
	}
}

// TestOriginForm: rule 20's origin key: scheme + host + port with the
// default port folded, no trailing slash.
func TestOriginForm(t *testing.T) {
	tests := []struct{ url, origin, robots string }{
		{"http://example.com/a", "http://example.com", "http://example.com/robots.txt"},
		{"http://example.com:8080/a", "http://example.com:8080", "http://example.com:8080/robots.txt"},
		{"https://example.com:443/a", "https://example.com", "https://example.com/robots.txt"},
		{"https://example.com:8443/a", "https://example.com:8443", "https://example.com:8443/robots.txt"},
		{"http://[::1]:8080/a", "http://[::1]:8080", "http://[::1]:8080/robots.txt"},
		{"http://127.0.0.1/a", "http://127.0.0.1", "http://127.0.0.1/robots.txt"},
		{"http://Bücher.example/a", "http://xn--bcher-kva.example", "http://xn--bcher-kva.example/robots.txt"},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.url)
		if u.Origin() != tt.origin || u.RobotsURL() != tt.robots {
			t.Errorf("%s: Origin %q RobotsURL %q; want %q %q", tt.url, u.Origin(), u.RobotsURL(), tt.origin, tt.robots)
		}
	}
}

// TestPathAndQuery: rule 12 (path plus "?query" as requested, no fragment,
// empty path is "/") and rule 13 (normalised escapes) for the robots
// match target.
func TestPathAndQuery(t *testing.T) {
	tests := []struct{ url, pq, path, query string }{
		{"http://example.com", "/", "/", ""}, // rule 12: empty path is "/"
		{"http://example.com/secret/readme.txt?v=1", "/secret/readme.txt?v=1", "/secret/readme.txt", "v=1"}, // seed 000 example
		{"http://example.com/doc.pdf?load=1#p2", "/doc.pdf?load=1", "/doc.pdf", "load=1"},                   // seed 000 "/*.pdf$" example; no fragment
		{"http://example.com/a?", "/a", "/a", ""},
		{"http://example.com/?", "/", "/", ""},
		{"http://example.com/%7Ea/%2fb%3c", "/~a/%2Fb%3C", "/~a/%2Fb%3C", ""}, // rule 13
		{"http://example.com/ü b", "/%C3%BC%20b", "/%C3%BC%20b", ""},          // rule 13
		{"http://example.com/earn$?x=*", "/earn$?x=*", "/earn$", "x=*"},       // seed 000 "/earn$*"
		{"http://example.com/a?b?c", "/a?b?c", "/a", "b?c"},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.url)
		if u.PathAndQuery() != tt.pq || u.Path() != tt.path || u.Query() != tt.query {
			t.Errorf("%s: PathAndQuery %q Path %q Query %q; want %q %q %q",
				tt.url, u.PathAndQuery(), u.Path(), u.Query(), tt.pq, tt.path, tt.query)
		}
	}
}

// TestHostPort: the parts a fetcher dials and a frontier keys on.
func TestHostPort(t *testing.T) {
	tests := []struct {
		url, scheme, host, port, hostPort string
		ip                                bool
	}{
		{"http://example.com/", "http", "example.com", "80", "example.com:80", false},
		{"https://example.com/", "https", "example.com", "443", "example.com:443", false},
		{"https://example.com:8443/", "https", "example.com", "8443", "example.com:8443", false},
		{"http://example.com:443/", "http", "example.com", "443", "example.com:443", false},
		{"http://127.0.0.1:8080/", "http", "127.0.0.1", "8080", "127.0.0.1:8080", true},
		{"http://[::1]/", "http", "::1", "80", "[::1]:80", true},
		{"https://[2001:db8::1]:8443/", "https", "2001:db8::1", "8443", "[2001:db8::1]:8443", true},
		{"http://localhost/", "http", "localhost", "80", "localhost:80", false},
		{"http://1.2.3.4.example/", "http", "1.2.3.4.example", "80", "1.2.3.4.example:80", false},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.url)
		if u.Scheme() != tt.scheme || u.Host() != tt.host || u.Port() != tt.port || u.HostPort() != tt.hostPort || u.IsIP() != tt.ip {
			t.Errorf("%s: Scheme %q Host %q Port %q HostPort %q IsIP %v", tt.url, u.Scheme(), u.Host(), u.Port(), u.HostPort(), u.IsIP())
		}
	}
}
