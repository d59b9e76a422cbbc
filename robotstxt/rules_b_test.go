package robotstxt

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// Tests for docs/robots-rules.md section B (matching), one function per rule.

// docs/robots-rules.md rule 12: the match target is the path plus ?query as
// requested, without fragment; an empty path is "/".
func TestRule12_MatchTarget(t *testing.T) {
	for _, tc := range []struct {
		url, want string
	}{
		{"http://example.com/a/b?c=d#frag", "/a/b?c=d"},
		{"https://example.com", "/"},
		{"https://example.com?q=1", "/?q=1"},
		{"https://example.com#top", "/"},
		{"https://example.com/#top", "/"},
		{"HTTPS://Example.COM/Path", "/Path"},
		{"http://example.com:8080/x", "/x"},
		{"http://user:pw@example.com/x?y", "/x?y"},
		{"http://[::1]:80/v6?x", "/v6?x"},
		{"http://example.com/%7Euser/a%2Fb?q=%41", "/%7Euser/a%2Fb?q=%41"}, // escapes as written
		{"http://example.com/caf\u00e9", "/caf\u00e9"},                     // raw octets as written
		{"http://example.com/a?", "/a?"},
		{"http://example.com//double", "//double"},
	} {
		got, err := PathAndQuery(tc.url)
		if err != nil || got != tc.want {
			t.Errorf("PathAndQuery(%q) = %q, %v; want %q", tc.url, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		"", "/relative", "example.com/a", "//example.com/a", "mailto:x@example.com",
		"ftp://example.com/a", "http:///nohost", "http:opaque", "http://exa mple.com/",
		"http://example.com/%zz", "http://example.com:port/", "http://example.com/\x7f",
	} {
		got, err := PathAndQuery(bad)
		if err == nil {
			t.Errorf("PathAndQuery(%q) = %q, want an error", bad, got)
		}
	}
	if _, err := PathAndQuery("ftp://example.com/"); !errors.Is(err, ErrNotHTTPURL) {
		t.Errorf("ftp: error %v, want ErrNotHTTPURL", err)
	}
	// Test reads "" as "/" and "?q" as "/?q".
	g := Parse(robotsOf("User-agent: *", "Disallow: /$", "Disallow: /?q")).For(ourAgent)
	for _, target := range []string{"", "/", "?q", "/?q"} {
		if v := g.Test(target); v.Allowed {
			t.Errorf("Test(%q) = %+v, want disallowed", target, v)
		}
	}
	// The query takes part in matching; a fragment is never part of the
	// target.
	checkAgent(t, robotsOf("User-agent: *", "Disallow: /*?session="), ourAgent,
		block("http://e.com/a?session=1"), allow("http://e.com/a#?session=1"))
}

// docs/robots-rules.md rule 13: patterns and targets are normalised alike.
func TestRule13_Normalisation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pattern string // Disallow value as written
		norm    string // Rule.Pattern
		blocked []string
		allowed []string
	}{
		{"non-ASCII pattern, encoded target", "/caf\u00e9", "/caf%C3%A9",
			[]string{"/caf%C3%A9", "/caf%c3%a9", "/caf\u00e9/x"}, []string{"/cafe"}},
		{"encoded pattern, raw target", "/caf%c3%a9", "/caf%C3%A9",
			[]string{"/caf\u00e9", "/caf%C3%A9"}, nil},
		{"hex case", "/a%2fb", "/a%2Fb", []string{"/a%2Fb", "/a%2fb"}, []string{"/a/b"}},
		{"%2F is not /", "/a/b", "/a/b", []string{"/a/b"}, []string{"/a%2Fb"}},
		{"unreserved escapes decode", "/%7Euser/%41", "/~user/A",
			[]string{"/~user/A", "/%7euser/%41", "/%7Euser/A"}, []string{"/~user/a"}},
		{"reserved escapes stay", "/a%3Db", "/a%3Db", []string{"/a%3db"}, []string{"/a=b"}},
		{"space", "/a b", "/a%20b", []string{"/a b", "/a%20b"}, []string{"/a+b"}},
		{"control octet", "/a\x01", "/a%01", []string{"/a\x01", "/a%01"}, nil},
		{"lone percent is literal", "/100%", "/100%25", []string{"/100%", "/100%25", "/100%zz"}, []string{"/100"}},
		{"%2A is a literal star", "/a%2Ab", "/a%2Ab", []string{"/a*b", "/a%2Ab", "/a%2ab"}, []string{"/axb", "/ab"}},
		{"%24 is a literal dollar", "/a%24", "/a%24", []string{"/a$", "/a%24", "/a$/x"}, []string{"/a", "/ab"}},
		{"both sides of unicode", "/\u00fc*\u00e9$", "/%C3%BC*%C3%A9$", []string{"/\u00fcber/caf\u00e9"}, []string{"/\u00fcber/cafe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := robotsOf("User-agent: *", "Disallow: "+tc.pattern)
			rules := Parse(body).For(ourAgent).Rules()
			if len(rules) != 1 || rules[0].Pattern != tc.norm {
				t.Fatalf("rules %v, want pattern %q", rules, tc.norm)
			}
			var cases []expect
			for _, b := range tc.blocked {
				cases = append(cases, block(b))
			}
			for _, a := range tc.allowed {
				cases = append(cases, allow(a))
			}
			checkAgent(t, body, ourAgent, cases...)
		})
	}
	// Precedence counts octets of the normalised pattern: "/%41" is "/A",
	// two octets, so the three-octet Allow wins.
	checkAgent(t, robotsOf("User-agent: *", "Disallow: /%41%42", "Allow: /AB"), ourAgent, allow("/AB").byLine(3))
}

// docs/robots-rules.md rule 14: a pattern matches a prefix of the path,
// case-sensitively; a pattern not starting with "/" or "*" matches nothing,
// is kept and noted.
func TestRule14_PrefixCaseSensitive(t *testing.T) {
	body := robotsOf("User-agent: *", "Disallow: /Private", "Disallow: private", "Disallow: %2Fp", "Disallow: ?x")
	checkAgent(t, body, ourAgent,
		block("/Private"), block("/Private/x"), block("/Privateer"),
		allow("/private"), allow("/PRIVATE"), allow("/x/Private"),
		allow("/p"), allow("/?x"))
	r := Parse(body)
	if got := len(r.For(ourAgent).Rules()); got != 4 {
		t.Errorf("%d rules kept, want 4", got)
	}
	for _, line := range []int{3, 4, 5} {
		if !hasNote(r, line, NotePatternNoSlash) {
			t.Errorf("line %d: notes %v, want NotePatternNoSlash", line, noteKinds(r, line))
		}
	}
	// A never-matching rule never decides, however long it is.
	checkAgent(t, robotsOf("User-agent: *", "Disallow: /", "Allow: xxxxxxxxxxxxxxxxxxxxxxxx"), ourAgent, block("/xxxxxxxxxxxxxxxxxxxxxxxx"))
	// Star-led patterns are valid.
	checkAgent(t, robotsOf("User-agent: *", "Disallow: *.gif"), ourAgent, block("/a/b.gif"), allow("/a/b.png"))
}

// docs/robots-rules.md rule 15: "*" matches any sequence of octets,
// including none; "$" is special only as the last character.
func TestRule15_WildcardsAndAnchor(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		blocked []string
		allowed []string
	}{
		{"/a*b", []string{"/ab", "/axb", "/a/x/y/b", "/abc", "/a?b"}, []string{"/a", "/ba"}},
		{"/a*b$", []string{"/ab", "/axxb", "/abab"}, []string{"/abc", "/a", "/abx"}},
		{"/a$", []string{"/a"}, []string{"/ab", "/a/", "/a?x"}},
		{"/a$b", []string{"/a$b", "/a$bc", "/a%24b"}, []string{"/ab", "/a"}},
		{"/a$$", []string{"/a$"}, []string{"/a", "/a$x"}},
		{"/a*$", []string{"/a", "/abc"}, []string{"/b"}},
		{"/a**b", []string{"/ab", "/a-b"}, []string{"/a"}},
		{"*", []string{"/", "/anything?x"}, nil},
		{"*$", []string{"/", "/x"}, nil},
		{"*/b/", []string{"/a/b/", "/b/c"}, []string{"/b"}},
		{"/*.php$", []string{"/index.php", "/a/b.php"}, []string{"/index.php?x=1", "/index.php5"}},
		{"/*?", []string{"/a?", "/?x"}, []string{"/a"}},
		{"/a*b*c", []string{"/abc", "/a1b2c3", "/aXbYbZc"}, []string{"/acb", "/ab"}},
		{"/x*yx*y$", []string{"/xyxy", "/xyxyxy", "/x1yx2y"}, []string{"/xyx", "/xyxyz"}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			var cases []expect
			for _, b := range tc.blocked {
				cases = append(cases, block(b))
			}
			for _, a := range tc.allowed {
				cases = append(cases, allow(a))
			}
			checkAgent(t, robotsOf("User-agent: *", "Disallow: "+tc.pattern), ourAgent, cases...)
		})
	}
}

// docs/robots-rules.md rule 16: the longest matching pattern wins, length
// in octets of the normalised pattern including every "*"; Allow wins a
// tie; no match means allowed.
func TestRule16_LongestPatternWins(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules []string
		want  expect
	}{
		{"longer Allow beats Disallow", []string{"Disallow: /a", "Allow: /a/b"}, allow("/a/b/c").byLine(3)},
		{"longer Disallow beats Allow", []string{"Allow: /a", "Disallow: /a/b"}, block("/a/b/c").byLine(3)},
		{"order in the file does not matter", []string{"Disallow: /a/b", "Allow: /a"}, block("/a/b/c").byLine(2)},
		{"tie goes to Allow", []string{"Disallow: /a", "Allow: /a"}, allow("/a").byLine(3)},
		{"tie goes to Allow, Allow first", []string{"Allow: /ab", "Disallow: /ab"}, allow("/ab").byLine(2)},
		{"tie between wildcards", []string{"Disallow: /*.x", "Allow: /a*x"}, allow("/a.x").byLine(3)},
		{"stars count", []string{"Disallow: /*.pdf", "Allow: /d***"}, block("/doc.pdf").byLine(2)},
		{"stars count, longer", []string{"Disallow: /*.pdf", "Allow: /d****"}, allow("/doc.pdf").byLine(3)},
		{"$ counts", []string{"Disallow: /ab$", "Allow: /ab"}, block("/ab").byLine(2)},
		{"escapes count as written", []string{"Disallow: /%3D/x", "Allow: /*/x"}, block("/%3D/x").byLine(2)}, // 6 octets, not 4
		{"no match: allowed", []string{"Disallow: /a"}, expect{target: "/b", allowed: true}},
		{"equal Disallows: earliest line decides", []string{"Disallow: /a*", "Disallow: /*b"}, block("/ab").byLine(2)},
		{"shorter matching loses to longer non-matching? no: only matches count", []string{"Disallow: /a", "Allow: /a/very/long/path"}, block("/a/other").byLine(2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkAgent(t, robotsOf(append([]string{"User-agent: *"}, tc.rules...)...), ourAgent, tc.want)
		})
	}
	v := Parse(robotsOf("User-agent: *", "Disallow: /a")).For(ourAgent).Test("/b")
	if !v.Allowed || v.Reason != ReasonNoMatch || v.Rule != (Rule{}) {
		t.Errorf("no match: %+v, want allowed, ReasonNoMatch, zero Rule", v)
	}
}

// docs/robots-rules.md rule 17: an empty Disallow or Allow is no rule; a
// group of its own with only "Disallow:" allows everything and overrides *.
func TestRule17_EmptyValueIsNoRule(t *testing.T) {
	r := Parse(robotsOf("User-agent: *", "Disallow: /x", "Disallow:", "Allow:", "Allow: # comment only"))
	g := r.For(ourAgent)
	if len(g.Rules()) != 1 {
		t.Errorf("rules %v, want only /x", g.Rules())
	}
	if !hasNote(r, 3, NoteEmptyDisallow) || !hasNote(r, 4, NoteEmptyAllow) || !hasNote(r, 5, NoteEmptyAllow) {
		t.Errorf("notes %v", r.Notes())
	}
	// "Allow:" does not un-block anything, "Disallow:" blocks nothing.
	checkAgent(t, robotsOf("User-agent: *", "Disallow: /x", "Allow:"), ourAgent, block("/x"), allow("/y"))
	checkAgent(t, robotsOf("User-agent: Mandelbot", "Disallow:", "User-agent: *", "Disallow: /"), ourAgent, allow("/"), allow("/y"))
	checkAgent(t, robotsOf("User-agent: Mandelbot", "Allow:", "User-agent: *", "Disallow: /"), ourAgent, allow("/y"))
}

// docs/robots-rules.md rule 18: /robots.txt itself is always allowed.
func TestRule18_RobotsTxtAlwaysAllowed(t *testing.T) {
	g := Parse(robotsOf("User-agent: *", "Disallow: /", "Disallow: /robots.txt")).For(ourAgent)
	for _, target := range []string{"/robots.txt", "/robots%2Etxt", "/%72obots.txt"} {
		if v := g.Test(target); !v.Allowed || v.Reason != ReasonRobotsTxt {
			t.Errorf("Test(%q) = %+v, want allowed with ReasonRobotsTxt", target, v)
		}
	}
	for _, target := range []string{"/robots.txt.bak", "/robots.txt?x=1", "/ROBOTS.TXT", "/a/robots.txt"} {
		if v := g.Test(target); v.Allowed {
			t.Errorf("Test(%q) = %+v, want disallowed: only /robots.txt itself is exempt", target, v)
		}
	}
}

// docs/robots-rules.md rule 19: matching is safe for concurrent use and a
// compiled rule set is immutable (run with -race to check the first).
// Linearity and allocations have tests of their own.
func TestRule19_ConcurrentTests(t *testing.T) {
	var lines []string
	lines = append(lines, "User-agent: *")
	for i := range 40 {
		lines = append(lines, "Disallow: /d"+strings.Repeat("x", i%7)+"/"+string(rune('a'+i%26)))
		lines = append(lines, "Allow: /*.a"+string(rune('a'+i%26))+"$")
	}
	r := Parse(robotsOf(lines...))
	g := r.For(ourAgent)
	targets := []string{"/dxx/c", "/dx/c.ac", "/zz", "/d/a", "/caf\u00e9", "/%7E", "/dxxxxxx/z"}
	want := make([]Verdict, len(targets))
	ref := Parse(robotsOf(lines...)).For(ourAgent) // compiled separately, sequentially
	for i, tg := range targets {
		want[i] = ref.Test(tg)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				for i, tg := range targets {
					if v := g.Test(tg); v != want[i] {
						t.Errorf("Test(%q) = %+v, want %+v", tg, v, want[i])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
