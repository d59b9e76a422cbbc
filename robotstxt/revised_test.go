package robotstxt

import (
	"testing"
	"time"
)

// Tests for the revised text of docs/robots-rules.md rules 1, 4 and 6
// (issue 7), each with the example the rule gives.

// docs/robots-rules.md rule 1 (revised): a truncated UTF-8 BOM ("EF BB" or
// "EF" followed by anything but the rest of the BOM) loses only those
// octets and the first line is read; "EF 11 BF" is no BOM prefix, so the
// first line is garbled and ignored.
func TestRule01_TruncatedBOM(t *testing.T) {
	const rest = "User-agent: Mandelbot\nDisallow: /private\n"
	for _, prefix := range []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"} {
		r := Parse([]byte(prefix + rest))
		g := r.For(ourAgent)
		if g.Selection() != SelectedByName {
			t.Errorf("% X: Selection %v, want the group naming Mandelbot; notes %v", prefix, g.Selection(), r.Notes())
		}
		if v := g.Test("/private"); v.Allowed || v.Rule.Line != 2 {
			t.Errorf("% X: Test(/private) = %+v, want disallowed by line 2", prefix, v)
		}
		if len(r.Notes()) != 0 {
			t.Errorf("% X: notes %v, want none", prefix, r.Notes())
		}
	}
	// EF 11 BF: only EF is a BOM prefix; "\x11\xBFUser-agent" is no field.
	r := Parse([]byte("\xEF\x11\xBFUser-agent: *\nDisallow: /\n"))
	if g := r.For(ourAgent); g.Selection() != SelectedNone || !g.Test("/x").Allowed {
		t.Errorf("EF 11 BF: Selection %v, want no group (the garbled User-agent line is ignored)", g.Selection())
	}
	if !hasNote(r, 1, NoteUnknownField) {
		t.Errorf("EF 11 BF: line 1 notes %v, want NoteUnknownField", noteKinds(r, 1))
	}
	// A truncated BOM alone is no line.
	for _, body := range []string{"\xEF", "\xEF\xBB"} {
		if got := Parse([]byte(body)).Lines(); got != 0 {
			t.Errorf("Lines(% X) = %d, want 0", body, got)
		}
	}
}

// docs/robots-rules.md rule 4 (revised): a group without rules (User-agent
// lines at the end of the file, or followed only by Crawl-delay or
// Sitemap) is still a group: it names its agents and allows them
// everything, so they do not fall back to *. The examples of the rule:
// a file ending in a bare "User-agent: Googlebot", and groups holding only
// a Crawl-delay.
func TestRule04_GroupWithoutRules(t *testing.T) {
	t.Run("file ending in a bare User-agent", func(t *testing.T) {
		body := robotsOf("User-agent: *", "Disallow: /", "", "User-agent: Googlebot")
		r := Parse(body)
		g := r.For("Googlebot")
		if g.Selection() != SelectedByName {
			t.Fatalf("Selection %v, want the group naming Googlebot", g.Selection())
		}
		if v := g.Test("/anything"); !v.Allowed || v.Reason != ReasonNoMatch {
			t.Errorf("Test(/anything) = %+v, want allowed, no rule matches", v)
		}
		if len(g.Agents()) != 1 || g.Agents()[0].Line != 4 || len(g.Rules()) != 0 {
			t.Errorf("group agents %v rules %v, want line 4 and no rules", g.Agents(), g.Rules())
		}
		checkAgent(t, body, ourAgent, block("/anything").byLine(2))
		if !hasNote(r, 4, NoteAgentNoRules) {
			t.Errorf("line 4 notes %v, want NoteAgentNoRules", noteKinds(r, 4))
		}
		if len(r.Groups()) != 2 {
			t.Errorf("%d groups, want 2", len(r.Groups()))
		}
	})
	t.Run("groups holding only a Crawl-delay", func(t *testing.T) {
		body := robotsOf(
			"User-agent: *", "Disallow: /private/", "",
			"User-agent: Googlebot", "Crawl-delay: 5", "",
			"User-agent: Mandelbot", "Crawl-delay: 5",
		)
		for _, agent := range []string{"Googlebot", ourAgent} {
			g := Parse(body).For(agent)
			if g.Selection() != SelectedByName {
				t.Errorf("%s: Selection %v, want by name", agent, g.Selection())
			}
			if d, ok := g.CrawlDelay(); !ok || d != 5*time.Second {
				t.Errorf("%s: CrawlDelay %v %v, want 5s", agent, d, ok)
			}
			checkAgent(t, body, agent, allow("/private/x"))
		}
		checkAgent(t, body, "Otherbot", block("/private/x").byLine(2))
	})
	t.Run("followed only by Sitemap", func(t *testing.T) {
		body := robotsOf("User-agent: *", "Disallow: /", "User-agent: Mandelbot", "Sitemap: https://example.com/s.xml")
		checkAgent(t, body, ourAgent, allow("/"), allow("/x"))
		if got := Parse(body).Sitemaps(); len(got) != 1 {
			t.Errorf("Sitemaps %v, want one", got)
		}
	})
	t.Run("the note says what the group now means", func(t *testing.T) {
		r := Parse(robotsOf("User-agent: Mandelbot"))
		var msg string
		for _, n := range r.Notes() {
			if n.Kind == NoteAgentNoRules {
				msg = n.Message()
			}
		}
		if want := "User-agent not followed by any Allow or Disallow line: the group allows everything to the agents it names"; msg != want {
			t.Errorf("note %q, want %q", msg, want)
		}
	})
}

// docs/robots-rules.md rule 4 (revised) on the two corpus files the issue
// names: www.trademe.co.nz ends with a bare "User-agent: Googlebot" and
// www.abc.net.au has Googlebot groups holding only Crawl-delay. Every URL
// of theirs is allowed to Googlebot.
func TestRule04_CorpusGroupsWithoutRules(t *testing.T) {
	sites := loadCorpus(t)
	allowed := 0
	for _, s := range sites {
		if s.name != "www.trademe.co.nz" && s.name != "www.abc.net.au" {
			continue
		}
		g := Parse(s.body).For("Googlebot")
		if g.Selection() != SelectedByName {
			t.Errorf("%s: Selection %v, want the group naming Googlebot", s.name, g.Selection())
		}
		for _, link := range s.links {
			target, err := PathAndQuery(link)
			if err != nil {
				continue
			}
			if v := g.Test(target); !v.Allowed {
				t.Errorf("%s: Googlebot %s = %+v, want allowed", s.name, link, v)
			} else {
				allowed++
			}
		}
	}
	if allowed == 0 {
		t.Error("no URL of the two sites checked")
	}
}

// docs/robots-rules.md rule 6 (revised): the token of a User-agent value is
// its leading run of ASCII letters, digits, "_" and "-"; whatever follows
// is dropped. The rule's examples: "Mandelbot/2.1", "Mandelbot (+url)" and
// "mandelbot*" all name Mandelbot; "Mandelbot-Image" does not; "MJ12bot"
// names MJ12bot, not MJ.
func TestRule06_AgentToken(t *testing.T) {
	for _, tc := range []struct {
		value, agent string
		names        bool
	}{
		{"Mandelbot/2.1", ourAgent, true},
		{"Mandelbot (+https://fractle.example/bot)", ourAgent, true},
		{"mandelbot*", ourAgent, true},
		{"Mandelbot-Image", ourAgent, false},
		{"MJ12bot", "MJ12bot", true},
		{"MJ12bot", "MJ", false},
		{"my_bot;v2", "my_bot", true},
	} {
		body := robotsOf("User-agent: "+tc.value, "Disallow: /named", "User-agent: *", "Disallow: /star")
		g := Parse(body).For(tc.agent)
		if got := g.Selection() == SelectedByName; got != tc.names {
			t.Errorf("User-agent %q, agent %q: Selection %v, want named=%v", tc.value, tc.agent, g.Selection(), tc.names)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"Mandelbot", "Mandelbot"},
		{"Mandelbot/2.1", "Mandelbot"},
		{"Mandelbot (+url)", "Mandelbot"},
		{"mandelbot*", "mandelbot"},
		{"Mandelbot-Image", "Mandelbot-Image"},
		{"MJ12bot", "MJ12bot"},
		{" \tMandelbot/1.0", "Mandelbot"},
		{"*", ""},
		{"/x", ""},
		{"\u212Aelvinbot", ""},
		{"Mandelbot\u00A0", "Mandelbot"},
		{"", ""},
	} {
		if got := AgentToken(tc.in); got != tc.want {
			t.Errorf("AgentToken(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
