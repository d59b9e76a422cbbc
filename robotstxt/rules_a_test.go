package robotstxt

import (
	"strings"
	"testing"
	"time"
)

// Tests for docs/robots-rules.md section A (parsing), one function per rule.

// docs/robots-rules.md rule 1: lines end at CR, LF or CRLF in any mix; a
// UTF-8 BOM is skipped; no line length limit.
func TestRule01_LineEndsAndBOM(t *testing.T) {
	lines := []string{"User-agent: Mandelbot", "Disallow: /a", "Allow: /a/b", "Disallow: /c"}
	mixed := lines[0] + "\r" + lines[1] + "\r\n" + lines[2] + "\n" + lines[3]
	long := strings.Repeat("x", 100<<10) // longer than bufio.Scanner's 64 KiB
	for _, tc := range []struct {
		name string
		body string
	}{
		{"LF", strings.Join(lines, "\n")},
		{"CRLF", strings.Join(lines, "\r\n") + "\r\n"},
		{"CR only", strings.Join(lines, "\r")},
		{"mixed", mixed},
		{"BOM", "\uFEFF" + strings.Join(lines, "\n")},
		{"BOM and CR", "\uFEFF" + strings.Join(lines, "\r")},
		{"long line before", "# " + long + "\n" + strings.Join(lines, "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse([]byte(tc.body))
			g := r.For(ourAgent)
			if got := len(g.Rules()); got != 3 {
				t.Fatalf("got %d rules, want 3: %v; notes %v", got, g.Rules(), r.Notes())
			}
			for _, c := range []expect{block("/a"), allow("/a/b"), block("/c/d"), allow("/d")} {
				if v := g.Test(c.target); v.Allowed != c.allowed {
					t.Errorf("Test(%q) = %+v, want allowed=%v", c.target, v, c.allowed)
				}
			}
			if len(r.Notes()) != 0 {
				t.Errorf("notes %v, want none", r.Notes())
			}
		})
	}
	// Line numbers count every terminator kind; a final terminator does
	// not start a line.
	for _, tc := range []struct {
		body  string
		lines int
	}{
		{"", 0}, {"\uFEFF", 0}, {"a", 1}, {"a\n", 1}, {"a\r\n", 1}, {"a\r", 1},
		{"a\r\rb", 3}, {"a\n\rb", 3}, {"a\r\nb", 2}, {"\n\n", 2}, {"\r\n\r\n", 2},
	} {
		if got := Parse([]byte(tc.body)).Lines(); got != tc.lines {
			t.Errorf("Lines(%q) = %d, want %d", tc.body, got, tc.lines)
		}
	}
	// A rule's line number is right under CR-only endings.
	r := Parse([]byte("User-agent: *\r\rDisallow: /x\r"))
	if got := r.For(ourAgent).Test("/x").Rule.Line; got != 3 {
		t.Errorf("CR-only: deciding line %d, want 3", got)
	}
}

// docs/robots-rules.md rule 2: <field>:<value>[#comment]; the field is
// case-insensitive; spaces and tabs around elements are ignored; no
// whitespace is required.
func TestRule02_LineSyntax(t *testing.T) {
	for _, tc := range []struct {
		line    string
		pattern string
	}{
		{"Disallow: /secret", "/secret"},
		{"disallow:/secret", "/secret"},
		{"DISALLOW:/secret", "/secret"},
		{"DisAllow :  /secret  ", "/secret"},
		{"\t Disallow\t:\t/secret\t", "/secret"},
		{"Disallow: /secret# This is a comment", "/secret"},
		{"Disallow: /secret #comment # more", "/secret"},
		{"Disallow:/secret#", "/secret"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			r := Parse(robotsOf("USER-AGENT:mandelbot", tc.line))
			rules := r.For(ourAgent).Rules()
			if len(rules) != 1 || rules[0].Pattern != tc.pattern || rules[0].Allow {
				t.Fatalf("rules %v, want one Disallow %q (notes %v)", rules, tc.pattern, r.Notes())
			}
		})
	}
	// An element's inner blanks are not trimmed: the space is part of the
	// path and is normalised (rule 13).
	if got := Parse(robotsOf("User-agent: *", "Disallow: /a b")).For(ourAgent).Rules()[0].Pattern; got != "/a%20b" {
		t.Errorf("inner space: pattern %q, want /a%%20b", got)
	}
	// A comment-only line and a blank line are no notes.
	if r := Parse(robotsOf("# comment", "   ", "\t# indented comment")); len(r.Notes()) != 0 {
		t.Errorf("comments and blanks gave notes %v", r.Notes())
	}
}

// docs/robots-rules.md rule 3: lines without a colon and unknown or
// misspelled fields are ignored and do not change grouping (unlike
// Google's parser).
func TestRule03_InvalidLinesIgnored(t *testing.T) {
	body := robotsOf(
		"User-agent: Mandelbot", // 1
		"Disalow: /typo",        // 2 misspelled field
		"useragent: Otherbot",   // 3 misspelled: must not start a group
		"Disallow /nocolon",     // 4 no colon
		"User agent: Thirdbot",  // 5 unknown field
		"Disallow: /real",       // 6
		"Noindex: /x",           // 7 unknown field
		"Disallow: /also",       // 8 still the same group
	)
	checkAgent(t, body, ourAgent,
		allow("/typo"), allow("/nocolon"), allow("/x"),
		block("/real").byLine(6), block("/also").byLine(8))
	for _, agent := range []string{"Otherbot", "Thirdbot"} {
		checkAgent(t, body, agent, allow("/real"), allow("/also"))
	}
	r := Parse(body)
	for line, kind := range map[int]NoteKind{2: NoteUnknownField, 3: NoteUnknownField, 4: NoteNoColon, 5: NoteUnknownField, 7: NoteUnknownField} {
		if !hasNote(r, line, kind) {
			t.Errorf("line %d: notes %v, want %v", line, noteKinds(r, line), kind)
		}
	}
	if got := len(r.Groups()); got != 1 {
		t.Errorf("%d groups, want 1", got)
	}
	// The unknown field is named in the message.
	for _, n := range r.Notes() {
		if n.Line == 2 {
			if want := `unknown field "Disalow": line ignored`; n.Message() != want {
				t.Errorf("message %q, want %q", n.Message(), want)
			}
		}
	}
	// Between two groups, an invalid line does not split or join them.
	body = robotsOf("User-agent: A", "Disallow: /a", "User agent: Mandelbot", "Disallow: /b")
	checkAgent(t, body, "A", block("/a"), block("/b"))
	checkAgent(t, body, ourAgent, allow("/a"), allow("/b"))
}

// docs/robots-rules.md rule 4: only a User-agent line that follows a rule
// line starts a group; blank lines, comments, Sitemap, Crawl-delay and
// unknown lines never start or end one; rules before the first User-agent
// are ignored.
func TestRule04_Grouping(t *testing.T) {
	t.Run("lines between User-agent lines do not split the group", func(t *testing.T) {
		body := robotsOf(
			"User-agent: Otherbot",
			"",
			"# comment",
			"Sitemap: https://example.com/sitemap.xml",
			"Crawl-delay: 5",
			"Unknown: x",
			"User-agent: Mandelbot",
			"Disallow: /shared",
		)
		checkAgent(t, body, ourAgent, block("/shared").byLine(8))
		checkAgent(t, body, "Otherbot", block("/shared").byLine(8))
		g := Parse(body).For(ourAgent)
		if d, ok := g.CrawlDelay(); !ok || d != 5*time.Second {
			t.Errorf("CrawlDelay = %v, %v; want 5s for the shared group", d, ok)
		}
	})
	t.Run("blank lines between rules do not end the group", func(t *testing.T) {
		body := robotsOf("User-agent: Mandelbot", "Disallow: /a", "", "", "Disallow: /b", "# c", "Allow: /b/c")
		checkAgent(t, body, ourAgent, block("/a"), block("/b"), allow("/b/c"))
	})
	t.Run("a User-agent after a rule starts a group", func(t *testing.T) {
		body := robotsOf("User-agent: Mandelbot", "Disallow: /a", "User-agent: Otherbot", "Disallow: /b")
		checkAgent(t, body, ourAgent, block("/a"), allow("/b"))
		checkAgent(t, body, "Otherbot", allow("/a"), block("/b"))
	})
	t.Run("Sitemap and Crawl-delay after rules do not end the group", func(t *testing.T) {
		body := robotsOf("User-agent: Mandelbot", "Disallow: /a", "Sitemap: https://e.com/s.xml", "Crawl-delay: 1", "Disallow: /b")
		checkAgent(t, body, ourAgent, block("/a"), block("/b"))
	})
	t.Run("rules before the first User-agent are ignored", func(t *testing.T) {
		body := robotsOf("Disallow: /early", "Allow: /early/ok", "User-agent: *", "Disallow: /late")
		checkAgent(t, body, ourAgent, allow("/early"), block("/late"))
		r := Parse(body)
		if !hasNote(r, 1, NoteRuleBeforeAgent) || !hasNote(r, 2, NoteRuleBeforeAgent) {
			t.Errorf("notes %v, want NoteRuleBeforeAgent on lines 1 and 2", r.Notes())
		}
	})
	t.Run("rules only, no User-agent: nothing applies", func(t *testing.T) {
		g := Parse(robotsOf("Disallow: /")).For(ourAgent)
		if g.Selection() != SelectedNone || !g.Test("/").Allowed {
			t.Errorf("Selection %v, verdict %+v; want no group, allowed", g.Selection(), g.Test("/"))
		}
	})
	// User-agent lines with no rule after them: TestRule04_GroupWithoutRules.
	t.Run("an empty Disallow ends the User-agent lines", func(t *testing.T) {
		body := robotsOf("User-agent: Mandelbot", "Disallow:", "User-agent: Otherbot", "Disallow: /")
		checkAgent(t, body, ourAgent, allow("/x"))
		checkAgent(t, body, "Otherbot", block("/x"))
	})
}

// docs/robots-rules.md rule 5: groups naming the same agent are merged.
func TestRule05_SameAgentGroupsMerged(t *testing.T) {
	body := robotsOf(
		"User-agent: Mandelbot",   // 1
		"Disallow: /a",            // 2
		"Crawl-delay: 7",          // 3
		"User-agent: *",           // 4
		"Disallow: /star",         // 5
		"User-agent: mandelbot/2", // 6 the same agent, other case and version
		"Disallow: /b",            // 7
		"Allow: /a/open",          // 8
		"Crawl-delay: 9",          // 9
	)
	checkAgent(t, body, ourAgent,
		block("/a").byLine(2), block("/b").byLine(7), allow("/a/open").byLine(8), allow("/star"))
	r := Parse(body)
	g := r.For(ourAgent)
	if got := g.Agents(); len(got) != 2 || got[0].Line != 1 || got[1].Line != 6 {
		t.Errorf("Agents = %v, want lines 1 and 6", got)
	}
	if rules := g.Rules(); len(rules) != 3 || rules[0].Line != 2 || rules[2].Line != 8 {
		t.Errorf("Rules = %v, want lines 2, 7, 8 in file order", rules)
	}
	if d, ok := g.CrawlDelay(); !ok || d != 7*time.Second {
		t.Errorf("CrawlDelay = %v, %v; want the first one, 7s", d, ok)
	}
	if len(r.Groups()) != 2 {
		t.Errorf("%d groups, want 2 (merged Mandelbot, *)", len(r.Groups()))
	}
	var merged *Note
	for i, n := range r.Notes() {
		if n.Kind == NoteAgentMerged {
			merged = &r.Notes()[i]
		}
	}
	if merged == nil || merged.Line != 6 || merged.Ref != 1 {
		t.Fatalf("notes %v, want NoteAgentMerged on line 6 referring to line 1", r.Notes())
	}
	if want := "agent also named at line 1: groups merged"; merged.Message() != want {
		t.Errorf("message %q, want %q", merged.Message(), want)
	}

	// Merging is per agent: a group naming A and B, then one naming A
	// again, gives A both groups' rules and B only the first's.
	body = robotsOf("User-agent: A", "User-agent: B", "Disallow: /ab", "User-agent: A", "Disallow: /a")
	checkAgent(t, body, "A", block("/ab"), block("/a"))
	checkAgent(t, body, "B", block("/ab"), allow("/a"))
	if got := len(Parse(body).Groups()); got != 2 {
		t.Errorf("%d groups, want 2", got)
	}

	// Several * groups merge too.
	body = robotsOf("User-agent: *", "Disallow: /1", "User-agent: X", "Disallow: /x", "User-agent: *", "Disallow: /2")
	checkAgent(t, body, ourAgent, block("/1"), block("/2"), allow("/x"))

	// The same agent twice in one group is a repeat, not a merge.
	r = Parse(robotsOf("User-agent: Mandelbot", "User-agent: MANDELBOT", "Disallow: /"))
	if !hasNote(r, 2, NoteAgentRepeated) || len(r.Groups()) != 1 {
		t.Errorf("notes %v, groups %d; want NoteAgentRepeated on line 2 and one group", r.Notes(), len(r.Groups()))
	}
}

// docs/robots-rules.md rule 6: the agent token is compared ASCII
// case-insensitively after dropping whatever follows the leading run of
// letters, digits, "_" and "-"; digits are kept; "*" alone or followed by
// whitespace is the default group. The revised examples are in
// TestRule06_AgentToken and TestRule06_Star*.
func TestRule06_AgentMatching(t *testing.T) {
	for _, tc := range []struct {
		value string // User-agent value in the file
		agent string // what the crawler passes to For
		names bool   // whether the group names the crawler
	}{
		{"Mandelbot", "Mandelbot", true},
		{"mandelbot", "Mandelbot", true},
		{"MANDELBOT", "mandelbot", true},
		{"Mandelbot/2.1", "Mandelbot", true},
		{"Mandelbot/2.1 (+https://fractle.example)", "Mandelbot", true},
		{"Mandelbot extra words", "Mandelbot", true},
		{"Mandelbot", "Mandelbot/1.0 (+https://fractle.example/bot)", true},
		{"Mandelbot", "  Mandelbot/1.0", true},
		{"MJ12bot", "MJ12bot", true},
		{"MJ12bot", "MJ", false},       // digits kept: not Google's "MJ"
		{"MJ", "MJ12bot", false},       // and no prefix matching
		{"Mandel", "Mandelbot", false}, // no prefix matching
		{"Mandelbot2", "Mandelbot", false},
		{"Mandel*", "Mandelbot", false},        // "*" inside a value is no wildcard
		{"\u212Aelvinbot", "kelvinbot", false}, // the Kelvin sign is not "K": ASCII folding only
		{"Kelvinbot", "\u212Aelvinbot", false}, // nor the other way
		{"Mandelbot\u00A0", "Mandelbot", true}, // NBSP ends the token (rule 6 revised)
		{"Googlebot-News", "Googlebot", false},
	} {
		t.Run(tc.value+"|"+tc.agent, func(t *testing.T) {
			body := robotsOf("User-agent: "+tc.value, "Disallow: /named", "User-agent: *", "Disallow: /star")
			g := Parse(body).For(tc.agent)
			if got := g.Selection() == SelectedByName; got != tc.names {
				t.Errorf("For(%q) with User-agent %q: Selection %v, want named=%v", tc.agent, tc.value, g.Selection(), tc.names)
			}
		})
	}
	// "*" alone (comments and blanks aside), or followed by whitespace and
	// more text, is the * group (rule 6 revised); "*/1" and "**" are not.
	for _, tc := range []struct {
		line string
		star bool
	}{
		{"User-agent: *", true},
		{"User-agent:*", true},
		{"User-agent: *   # all", true},
		{"User-agent: * x", true},
		{"User-agent: */1.0", false},
		{"User-agent: **", false},
	} {
		g := Parse(robotsOf(tc.line, "Disallow: /")).For(ourAgent)
		if got := g.Selection() == SelectedByStar; got != tc.star {
			t.Errorf("%q: Selection %v, want star=%v", tc.line, g.Selection(), tc.star)
		}
	}
	r := Parse(robotsOf("User-agent: Mandel*", "Disallow: /", "User-agent:", "Disallow: /x"))
	if !hasNote(r, 1, NoteAgentWildcard) || !hasNote(r, 3, NoteEmptyAgent) {
		t.Errorf("notes %v, want NoteAgentWildcard on line 1 and NoteEmptyAgent on line 3", r.Notes())
	}
}

// docs/robots-rules.md rule 7: the group naming the crawler, else the *
// group, else everything is allowed.
func TestRule07_GroupSelection(t *testing.T) {
	named := robotsOf("User-agent: *", "Disallow: /star", "User-agent: Mandelbot", "Disallow: /named")
	star := robotsOf("User-agent: Other", "Disallow: /other", "User-agent: *", "Disallow: /star")
	none := robotsOf("User-agent: Other", "Disallow: /")
	for _, tc := range []struct {
		name string
		body []byte
		sel  Selection
		want []expect
	}{
		{"named group wins even after *", named, SelectedByName, []expect{block("/named"), allow("/star")}},
		{"* when nothing names us", star, SelectedByStar, []expect{block("/star"), allow("/other")}},
		{"nothing applies", none, SelectedNone, []expect{allow("/"), allow("/other")}},
		{"empty file", nil, SelectedNone, []expect{allow("/")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Parse(tc.body).For(ourAgent)
			if g.Selection() != tc.sel {
				t.Errorf("Selection %v, want %v", g.Selection(), tc.sel)
			}
			checkAgent(t, tc.body, ourAgent, tc.want...)
		})
	}
	// A group naming both us and * is ours by name and the others' by *.
	r := Parse(robotsOf("User-agent: Mandelbot", "User-agent: *", "Disallow: /x"))
	if r.For(ourAgent).Selection() != SelectedByName || r.For("Other").Selection() != SelectedByStar {
		t.Errorf("selections %v, %v", r.For(ourAgent).Selection(), r.For("Other").Selection())
	}
	// The zero Group and a nil Robots allow everything.
	var zero Group
	if v := zero.Test("/x"); !v.Allowed || v.Reason != ReasonNoGroup {
		t.Errorf("zero Group: %+v", v)
	}
	var zeroRobots Robots
	if g := zeroRobots.For(ourAgent); g.Selection() != SelectedNone || !g.Test("/").Allowed {
		t.Error("zero Robots: everything must be allowed")
	}
	var nilRobots *Robots
	if g := nilRobots.For(ourAgent); g == nil || !g.Test("/").Allowed {
		t.Error("nil Robots: For must return a group that allows everything")
	}
}

// docs/robots-rules.md rule 8: Sitemap lines are global wherever they are;
// values are absolute URLs; kept in order, de-duplicated.
func TestRule08_Sitemaps(t *testing.T) {
	body := robotsOf(
		"Sitemap: https://example.com/a.xml",     // 1 before any group
		"User-agent: Mandelbot",                  // 2
		"Sitemap: https://example.com/b.xml",     // 3 inside a group
		"Disallow: /x",                           // 4
		"sitemap:https://example.com/a.xml",      // 5 repeat
		"Sitemap: /relative.xml",                 // 6 not absolute
		"Sitemap:",                               // 7 empty
		"SITEMAP: http://other.example/c.xml.gz", // 8
		"Sitemap: https://example.com/d.xml # c", // 9 comment
	)
	r := Parse(body)
	want := []string{"https://example.com/a.xml", "https://example.com/b.xml", "http://other.example/c.xml.gz", "https://example.com/d.xml"}
	if got := r.Sitemaps(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Sitemaps = %q, want %q", got, want)
	}
	if !hasNote(r, 5, NoteSitemapRepeated) || !hasNote(r, 6, NoteSitemapNotAbsolute) || !hasNote(r, 7, NoteSitemapNotAbsolute) {
		t.Errorf("notes %v", r.Notes())
	}
	// A Sitemap line inside a group does not touch the group.
	checkAgent(t, body, ourAgent, block("/x"))

	// What counts as an absolute URL with a host.
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{"https://example.com/sitemap.xml", true},
		{"HTTP://EXAMPLE.COM", true},
		{"http://example.com:8080/s.xml?x=1", true},
		{"http://user@example.com/s", true},
		{"ftp://example.com/s.xml", true}, // any scheme: the crawler decides what it fetches
		{"git+ssh://host/x", true},
		{"http://[::1]/s", true},
		{"example.com/sitemap.xml", false},
		{"/sitemap.xml", false},
		{"//example.com/s.xml", false},
		{"http://", false},
		{"http:///s.xml", false},
		{"http://:80/s.xml", false},
		{"http://user@/s", false},
		{"1http://example.com/", false},
		{"ht tp://example.com/", false},
		{"http://exa mple.com/", false},
		{"http:example.com", false},
	} {
		r := Parse(robotsOf("Sitemap: " + tc.value))
		if got := len(r.Sitemaps()) == 1; got != tc.ok {
			t.Errorf("Sitemap %q kept = %v, want %v (notes %v)", tc.value, got, tc.ok, r.Notes())
		}
	}
}

// docs/robots-rules.md rule 9: Crawl-delay is parsed and exposed per group,
// never obeyed by the library.
func TestRule09_CrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"10", 10 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"2.", 2 * time.Second, true},
		{".25", 250 * time.Millisecond, true},
		{"0", 0, true},
		{"1.0000000019", time.Second + 1, true},
		{"99999999999999999999", 1<<63 - 1, true}, // saturates
		{"", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1e3", 0, false},
		{"5 s", 0, false},
		{"abc", 0, false},
		{".", 0, false},
		{"1.2.3", 0, false},
	} {
		t.Run(tc.value, func(t *testing.T) {
			r := Parse(robotsOf("User-agent: Mandelbot", "Crawl-delay: "+tc.value, "Disallow: /x"))
			d, ok := r.For(ourAgent).CrawlDelay()
			if ok != tc.ok || d != tc.want {
				t.Errorf("CrawlDelay = %v, %v; want %v, %v", d, ok, tc.want, tc.ok)
			}
			if !tc.ok && !hasNote(r, 2, NoteCrawlDelayInvalid) {
				t.Errorf("notes %v, want NoteCrawlDelayInvalid", r.Notes())
			}
		})
	}
	body := robotsOf("Crawl-delay: 1", "User-agent: Mandelbot", "Crawl-delay: 2", "Disallow: /x", "Crawl-delay: 3", "User-agent: *", "Disallow: /")
	r := Parse(body)
	if d, ok := r.For(ourAgent).CrawlDelay(); !ok || d != 2*time.Second {
		t.Errorf("CrawlDelay = %v, %v; want the group's first, 2s", d, ok)
	}
	if _, ok := r.For("Other").CrawlDelay(); ok {
		t.Error("the * group has no Crawl-delay")
	}
	if !hasNote(r, 1, NoteCrawlDelayNoGroup) || !hasNote(r, 5, NoteCrawlDelayRepeated) {
		t.Errorf("notes %v", r.Notes())
	}
	// Not obeyed: the verdicts are those of the rules alone.
	checkAgent(t, body, ourAgent, allow("/"), block("/x"))
}

// docs/robots-rules.md rule 10: only the first 512,000 octets are parsed; a
// line cut by the limit is dropped; the limit is configurable, never below
// 500 KiB.
func TestRule10_SizeLimit(t *testing.T) {
	head := "User-agent: Mandelbot\nDisallow: /first\n"
	pad := func(n int) string { return "#" + strings.Repeat("p", n-2) + "\n" } // a comment line of n octets
	cut := "Disallow: /abcdef\n"
	// The limit falls inside "Disallow: /abcdef": parsing the cut line
	// would block /abc.
	body := head + pad(DefaultMaxBytes-len(head)-len("Disallow: /abc")) + cut + "Disallow: /after\n"
	if got := strings.Index(body, cut) + len("Disallow: /abc"); got != DefaultMaxBytes {
		t.Fatalf("test setup: limit at %d", got)
	}
	r := Parse([]byte(body))
	if !r.Truncated() {
		t.Error("Truncated() = false")
	}
	checkAgent(t, []byte(body), ourAgent, block("/first"), allow("/abc"), allow("/abcdef"), allow("/after"))
	if !hasNote(r, 4, NoteCutByLimit) {
		t.Errorf("notes %v, want NoteCutByLimit on line 4", r.Notes())
	}
	// A line whose terminator is the first octet past the limit is whole.
	whole := head + pad(DefaultMaxBytes-len(head)-len("Disallow: /abcdef")) + cut
	checkAgent(t, []byte(whole), ourAgent, block("/abcdef"))
	if r := Parse([]byte(whole)); len(r.Notes()) != 0 {
		t.Errorf("exact fit: notes %v, want none", r.Notes())
	}
	wholeCRLF := strings.ReplaceAll(head, "\n", "\r\n") + pad(DefaultMaxBytes-len(head)-2-len("Disallow: /abcdef")) + "Disallow: /abcdef\r\n"
	checkAgent(t, []byte(wholeCRLF), ourAgent, block("/abcdef")) // the limit falls between CR and LF
	// MaxBytes raises the limit; it never lowers it below the default.
	if r := Parse([]byte(body), MaxBytes(len(body))); r.Truncated() || r.For(ourAgent).Test("/after").Allowed {
		t.Errorf("MaxBytes(len(body)): Truncated %v, /after %+v; want the whole body read", r.Truncated(), r.For(ourAgent).Test("/after"))
	}
	if r := Parse([]byte(body), MaxBytes(10)); !r.Truncated() || r.For(ourAgent).Test("/first").Allowed || !r.For(ourAgent).Test("/abc").Allowed {
		t.Errorf("MaxBytes(10) must read exactly 512000 octets: Truncated %v", r.Truncated())
	}
	if DefaultMaxBytes != 512000 {
		t.Errorf("DefaultMaxBytes = %d, want 512000", DefaultMaxBytes)
	}
}

// docs/robots-rules.md rule 11: parsing never fails; ignored lines are
// reported as notes.
func TestRule11_ParsingNeverFails(t *testing.T) {
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i * 7919 >> 3)
	}
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"NULs", make([]byte, 100)},
		{"binary", junk},
		{"HTML", []byte("<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>Not: found</body></html>\n")},
		{"only colons", []byte(":\n::\n:::")},
		{"invalid UTF-8", []byte("User-agent: *\nDisallow: /\xff\xfe\n")},
		{"lone CR and BOM in the middle", []byte("User-agent: *\r\uFEFFDisallow: /x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse(tc.body)
			g := r.For(ourAgent)
			_ = g.Test("/")
			for _, n := range r.Notes() {
				if n.Line < 1 || n.Line > r.Lines() || n.Kind.String() == "" || len(n.Text) > MaxNoteText {
					t.Errorf("bad note %+v (lines %d)", n, r.Lines())
				}
			}
		})
	}
	html := Parse([]byte("\n  <html>\n<body>User-agent: * Disallow: /</body>\n"))
	if !hasNote(html, 2, NoteHTML) {
		t.Errorf("notes %v, want NoteHTML on line 2", html.Notes())
	}
	bad := Parse([]byte("User-agent: *\nDisallow: /\xff\n"))
	if !hasNote(bad, 2, NoteInvalidUTF8) {
		t.Errorf("notes %v, want NoteInvalidUTF8 on line 2", bad.Notes())
	}
	if got := bad.For(ourAgent).Rules()[0].Pattern; got != "/%FF" {
		t.Errorf("pattern %q, want /%%FF", got)
	}
	// Notes quote the line, valid UTF-8 and capped.
	long := Parse([]byte(strings.Repeat("\xff", 300)))
	for _, n := range long.Notes() {
		if len(n.Text) > MaxNoteText || !strings.HasPrefix(n.Text, `\xFF`) || !strings.HasSuffix(n.Text, "...") {
			t.Errorf("note text %q (%d octets)", n.Text, len(n.Text))
		}
	}
	// The note limit holds, and says so.
	many := Parse([]byte(strings.Repeat("x\n", 50)), MaxNotes(10))
	if n := len(many.Notes()); n != 11 || many.Notes()[10].Kind != NoteTooManyNotes || many.Notes()[10].Line != 11 {
		t.Errorf("%d notes, last %+v; want 10 + NoteTooManyNotes at line 11", n, many.Notes()[n-1])
	}
}
