package robotstxt

import "testing"

// Every robots.txt example of seed 000_6793739a02a95cf8.txt, quoted line by
// line, with the URLs the seed names (and, where it names none, the paths
// its comments speak of).

const ourAgent = "Mandelbot"

// Seed: "In this example, Mandelbot follows its specific group".
func TestSeed_FollowsSpecificGroup(t *testing.T) {
	body := robotsOf(
		"User-agent: Mandelbot",
		"Disallow: /private # Mandelbot follows this directive",
		"User-agent: *",
		"Disallow: /secret # Mandelbot ignores this directive",
	)
	checkAgent(t, body, ourAgent, block("/private").byLine(2), allow("/secret"))
	checkAgent(t, body, "Otherbot", allow("/private"), block("/secret").byLine(4))
	if s := Parse(body).For(ourAgent).Selection(); s != SelectedByName {
		t.Errorf("Selection = %v, want SelectedByName", s)
	}
}

// Seed: "In this example, Mandelbot falls back to the default group".
func TestSeed_FallsBackToDefaultGroup(t *testing.T) {
	body := robotsOf(
		"User-agent: Anotherbot",
		"Disallow: /private # Mandelbot ignores this directive",
		"User-agent: *",
		"Disallow: /secret # Mandelbot follows this directive",
	)
	checkAgent(t, body, ourAgent, allow("/private"), block("/secret").byLine(4))
	if s := Parse(body).For(ourAgent).Selection(); s != SelectedByStar {
		t.Errorf("Selection = %v, want SelectedByStar", s)
	}
}

// Seed: "In this example, no group applies to Mandelbot".
func TestSeed_NoGroupApplies(t *testing.T) {
	body := robotsOf(
		"User-agent: Anotherbot",
		"Disallow: /private # Mandelbot ignores this directive",
	)
	g := Parse(body).For(ourAgent)
	if g.Selection() != SelectedNone {
		t.Errorf("Selection = %v, want SelectedNone", g.Selection())
	}
	v := g.Test("/private")
	if !v.Allowed || v.Reason != ReasonNoGroup || v.Rule.Line != 0 {
		t.Errorf("Test(/private) = %+v, want allowed with ReasonNoGroup", v)
	}
	checkAgent(t, body, "Anotherbot", block("/private"))
}

// Seed: "In this example, two user-agents including Mandelbot share a group".
func TestSeed_TwoAgentsShareAGroup(t *testing.T) {
	body := robotsOf(
		"User-agent: Mandelbot",
		"User-agent: Anotherbot",
		"Disallow: /private # Mandelbot follows this directive",
		"User-agent: *",
		"Disallow: /secret # Mandelbot ignores this directive",
	)
	checkAgent(t, body, ourAgent, block("/private").byLine(3), allow("/secret"))
	checkAgent(t, body, "Anotherbot", block("/private").byLine(3), allow("/secret"))
	r := Parse(body)
	if r.For(ourAgent) != r.For("Anotherbot") {
		t.Error("Mandelbot and Anotherbot should get the same group")
	}
	if got := len(r.For(ourAgent).Agents()); got != 2 {
		t.Errorf("shared group has %d agents, want 2", got)
	}
}

// Seed: "Mandelbot and other robots are blocked from crawling any url".
func TestSeed_StarDisallowAll(t *testing.T) {
	body := robotsOf("User-agent: *", "Disallow: /")
	checkAgent(t, body, ourAgent, block("/"), block("/index.html"), block("/a?b=c"))
	checkAgent(t, body, "Otherbot", block("/"), block("/x"))
}

// Seed: "Mandelbot is blocked from crawling any url".
func TestSeed_MandelbotDisallowAll(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /")
	checkAgent(t, body, ourAgent, block("/"), block("/dogs/barking.html"))
	checkAgent(t, body, "Otherbot", allow("/"), allow("/dogs/barking.html"))
}

// Seed: "/secret/doc.html is blocked, but /private/secret/doc.html is not".
func TestSeed_DisallowPrefixes(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /secret", "Disallow: /hidden")
	checkAgent(t, body, ourAgent,
		block("/secret/doc.html").byLine(2),
		allow("/private/secret/doc.html"),
		block("/hidden").byLine(3),
		block("/hiddenfile.txt").byLine(3),
	)
}

// Seed: "Mandelbot may crawl any url while other robots are blocked".
func TestSeed_EmptyDisallowOverridesStar(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow:", "User-agent: *", "Disallow: /")
	r := Parse(body)
	g := r.For(ourAgent)
	if g.Selection() != SelectedByName || len(g.Rules()) != 0 {
		t.Errorf("Mandelbot group: selection %v with %d rules, want its own empty group", g.Selection(), len(g.Rules()))
	}
	checkAgent(t, body, ourAgent, allow("/"), allow("/anything/at/all?x=1"))
	checkAgent(t, body, "Otherbot", block("/"), block("/anything"))
	if !hasNote(r, 2, NoteEmptyDisallow) {
		t.Errorf("line 2 notes %v, want NoteEmptyDisallow", noteKinds(r, 2))
	}
}

// Seed: "/secret/doc.html is blocked, but /secret/readme.txt and
// /secret/readme.txt?v=1 are not".
func TestSeed_AllowOverridesDisallow(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /secret", "Allow: /secret/readme.txt")
	checkAgent(t, body, ourAgent,
		block("/secret/doc.html").byLine(2),
		allow("/secret/readme.txt").byLine(3),
		allow("/secret/readme.txt?v=1").byLine(3),
	)
}

// Seed: "/secret/private/doc.html is blocked, but
// /secret/private-stuff/doc.html is not".
func TestSeed_WildcardFolder(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /*/private/")
	checkAgent(t, body, ourAgent,
		block("/secret/private/doc.html").byLine(2),
		allow("/secret/private-stuff/doc.html"),
	)
}

// Seed: "/doc.pdf is blocked, but /doc.pdf?load=1 is not".
func TestSeed_EndAnchor(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /*.pdf$")
	checkAgent(t, body, ourAgent, block("/doc.pdf").byLine(2), allow("/doc.pdf?load=1"))
}

// Seed: "/doc.pdf is blocked, but /files.pdf is not as /files is the same
// length as /*.pdf (Allow directives take precedence in ties) and /doc has
// no effect as it's shorter than /*.pdf".
func TestSeed_PrecedenceTieGoesToAllow(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /*.pdf", "Allow: /files", "Allow: /doc")
	checkAgent(t, body, ourAgent,
		block("/doc.pdf").byLine(2),
		allow("/files.pdf").byLine(3),
	)
}

// Seed: "Mandelbot is blocked from crawling the url /money and any urls
// prefixed by /earn$ because the * in /earn$* turns the dollar character
// into a regular character".
func TestSeed_DollarAnchorAndLiteralDollar(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /money$", "Disallow: /earn$*")
	checkAgent(t, body, ourAgent,
		block("/money").byLine(2),
		allow("/money/more"),
		allow("/moneys"),
		allow("/money?x=1"),
		block("/earn$").byLine(3),
		block("/earn$100.html").byLine(3),
		block("/earn%24100.html").byLine(3), // the same URL with "$" escaped
		allow("/earn"),
		allow("/earnings"),
	)
}

// Seed: "/files.pdf is blocked, but /doc.pdf is not as the extra *
// characters at the end of the paths change their length and therefore
// their precedence".
func TestSeed_StarsChangePrecedence(t *testing.T) {
	body := robotsOf("User-agent: Mandelbot", "Disallow: /*.pdf*", "Allow: /files", "Allow: /doc****")
	checkAgent(t, body, ourAgent,
		block("/files.pdf").byLine(2),
		allow("/doc.pdf").byLine(4),
	)
}

// Seed: "In this example containing different types of comment, Mandelbot
// is blocked from crawling any url prefixed by /secret and other robots are
// blocked from crawling any url".
func TestSeed_Comments(t *testing.T) {
	body := robotsOf(
		"# A standalone comment on its own line",
		"User-agent: Mandelbot # Whitespace is allowed but not required between elements",
		"Disallow: /secret# This is a comment",
		"User-agent: * # For other robots",
		"Disallow: / # Block everything",
	)
	checkAgent(t, body, ourAgent, block("/secret").byLine(3), block("/secret/x"), allow("/public"), allow("/"))
	checkAgent(t, body, "Otherbot", block("/").byLine(5), block("/public"))
	r := Parse(body)
	if n := len(r.Notes()); n != 0 {
		t.Errorf("a valid file with comments got notes: %v", r.Notes())
	}
	if got := r.For(ourAgent).Rules()[0].Pattern; got != "/secret" {
		t.Errorf("pattern = %q, want /secret (comment stripped)", got)
	}
}

// Seed: "Sitemap: http://www.example.com/sitemap.xml" (sitemap lines may
// occur anywhere and belong to no group).
func TestSeed_Sitemap(t *testing.T) {
	body := robotsOf(
		"User-agent: Mandelbot",
		"Sitemap: http://www.example.com/sitemap.xml",
		"Disallow: /x",
	)
	r := Parse(body)
	if got := r.Sitemaps(); len(got) != 1 || got[0] != "http://www.example.com/sitemap.xml" {
		t.Errorf("Sitemaps = %q", got)
	}
	checkAgent(t, body, ourAgent, block("/x"))
}

// Seed: the root URL example: "for the url http://www.example.com/dogs/barking.html"
// the match target is its path.
func TestSeed_TargetOfAbsoluteURL(t *testing.T) {
	got, err := PathAndQuery("http://www.example.com/dogs/barking.html")
	if err != nil || got != "/dogs/barking.html" {
		t.Errorf("PathAndQuery = %q, %v; want /dogs/barking.html", got, err)
	}
}
