package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// The tests of docs/robots-rules.md rule 6 (revised 2026-11-27, issue 33):
// a User-agent value that is "*" alone, or "*" followed by whitespace and
// anything else, names the * (fallback) group; "**", "*foo" and "*/1.0"
// name nobody.

// Rule 6 revised, the first case: "*" followed by a comment-like
// text is the * group, so a crawler without a group of its own obeys it.
func TestRule06_StarThenTextIsTheStarGroup(t *testing.T) {
	body := robotsOf("User-agent: * (+http://example.com/bot)", "Disallow: /")
	r := Parse(body)
	if sel := r.For(ourAgent).Selection(); sel != SelectedByStar {
		t.Errorf("Selection %v, want %v", sel, SelectedByStar)
	}
	checkAgent(t, body, ourAgent, block("/x").byLine(2), block("/").byLine(2))
	checkAgent(t, body, "Googlebot", block("/x").byLine(2))
	if !hasNote(r, 1, NoteAgentStarText) || hasNote(r, 1, NoteEmptyAgent) {
		t.Errorf("notes %v, want NoteAgentStarText (and no NoteEmptyAgent) on line 1", r.Notes())
	}
	if got := r.Groups(); len(got) != 1 || got[0].Selection() != SelectedByStar {
		t.Errorf("Groups() = %v, want the one * group", got)
	}

	// It is only the fallback: a group naming the crawler still wins (rule 7).
	body = robotsOf("User-agent: * (+http://example.com/bot)", "Disallow: /", "User-agent: Mandelbot", "Disallow: /named")
	checkAgent(t, body, ourAgent, allow("/x"), block("/named").byLine(4))
	checkAgent(t, body, "Otherbot", block("/x").byLine(2), block("/named").byLine(2))
}

// Rule 6 revised, the second case: a whole rule written on the
// User-agent line. The line names the * group; the text after "*" is not
// read, so "Disallow: /x" on it is no rule, while the rule lines after it
// belong to the * group.
func TestRule06_StarThenRuleOnTheLineIsTheStarGroup(t *testing.T) {
	body := robotsOf("User-agent: * Disallow: /x")
	r := Parse(body)
	g := r.For(ourAgent)
	if g.Selection() != SelectedByStar || len(g.Rules()) != 0 {
		t.Errorf("Selection %v with %d rules, want %v without rules", g.Selection(), len(g.Rules()), SelectedByStar)
	}
	checkAgent(t, body, ourAgent, allow("/x"))
	if !hasNote(r, 1, NoteAgentStarText) {
		t.Errorf("notes %v, want NoteAgentStarText on line 1", r.Notes())
	}

	body = robotsOf("User-agent: * Disallow: /x", "Disallow: /y")
	checkAgent(t, body, ourAgent, allow("/x"), block("/y").byLine(2))
	checkAgent(t, body, "bingbot", allow("/x"), block("/y").byLine(2))
}

// Rule 6 revised: "*" joined to other text ("**", "*foo", "*/1.0") is not
// the * group and names nobody, not even the name after the "*"; such a
// line does not join a real * group either.
func TestRule06_StarJoinedToTextNamesNobody(t *testing.T) {
	for _, value := range []string{"**", "*foo", "*/1.0", "*(+http://example.com/bot)", "*\u00A0x"} {
		t.Run(value, func(t *testing.T) {
			r := Parse(robotsOf("User-agent: "+value, "Disallow: /"))
			for _, agent := range []string{ourAgent, "foo"} {
				if g := r.For(agent); g.Selection() != SelectedNone {
					t.Errorf("For(%q): Selection %v, want %v", agent, g.Selection(), SelectedNone)
				}
			}
			checkAgent(t, robotsOf("User-agent: "+value, "Disallow: /"), ourAgent, allow("/x"))
			if !hasNote(r, 1, NoteAgentStarJoined) {
				t.Errorf("notes %v, want NoteAgentStarJoined on line 1", r.Notes())
			}
			body := robotsOf("User-agent: "+value, "Disallow: /joined", "User-agent: *", "Disallow: /star")
			checkAgent(t, body, ourAgent, allow("/joined"), block("/star").byLine(4))
			checkAgent(t, body, "foo", allow("/joined"), block("/star").byLine(4))
		})
	}
}

// Rule 6 revised: the whitespace after "*" may be a space, a tab, a
// vertical tab or a form feed (what Google's parser counts as whitespace
// inside a line); a no-break space is not ASCII whitespace.
func TestRule06_StarThenAnyWhitespace(t *testing.T) {
	for _, tc := range []struct {
		value string
		star  bool
	}{
		{"* x", true},
		{"*\tx", true},
		{"*\vx", true},
		{"*\fx", true},
		{"*\v", true},
		{"*  \t (bot)", true},
		{"*\u00A0x", false},
		{"*x y", false},
	} {
		g := Parse(robotsOf("User-agent: "+tc.value, "Disallow: /")).For(ourAgent)
		if got := g.Selection() == SelectedByStar; got != tc.star {
			t.Errorf("User-agent %q: Selection %v, want star=%v", tc.value, g.Selection(), tc.star)
		}
	}
}

// Rules 5 and 6 revised: every line naming the * group names the same
// group, so a "User-agent: *" group and a "User-agent: * (bot)" group are
// merged like any two groups naming one agent.
func TestRule06_StarGroupsWithTextMerge(t *testing.T) {
	body := robotsOf(
		"User-agent: *",       // 1
		"Disallow: /1",        // 2
		"User-agent: X",       // 3
		"Disallow: /x",        // 4
		"User-agent: * (bot)", // 5
		"Disallow: /2",        // 6
	)
	checkAgent(t, body, ourAgent, block("/1").byLine(2), block("/2").byLine(6), allow("/x"))
	r := Parse(body)
	if len(r.Groups()) != 2 {
		t.Errorf("%d groups, want 2 (merged *, X)", len(r.Groups()))
	}
	found := false
	for _, n := range r.Notes() {
		found = found || n.Kind == NoteAgentMerged && n.Line == 5 && n.Ref == 1
	}
	if !found {
		t.Errorf("notes %v, want NoteAgentMerged on line 5 referring to line 1", r.Notes())
	}
}

// Rule 6 revised, the one definition: IsStarAgent decides which values
// name the * group, and AgentToken gives them no agent token, so a value
// is never both the * group and a name.
func TestRule06_IsStarAgent(t *testing.T) {
	for _, tc := range []struct {
		value string
		star  bool
	}{
		{"*", true},
		{" *", true},
		{"* (+http://example.com/bot)", true},
		{"* Disallow: /x", true},
		{"*\tMandelbot", true},
		{"*\v", true},
		{"*\f(bot)", true},
		{"", false},
		{"**", false},
		{"*foo", false},
		{"*/1.0", false},
		{"*\u00A0x", false},
		{"Mandelbot *", false},
		{"x*", false},
	} {
		if got := IsStarAgent(tc.value); got != tc.star {
			t.Errorf("IsStarAgent(%q) = %v, want %v", tc.value, got, tc.star)
		}
		if tok := AgentToken(tc.value); tc.star && tok != "" {
			t.Errorf("AgentToken(%q) = %q, want none for a * value", tc.value, tok)
		}
	}
}

// Rule 6 revised: the reference parser agrees with Parse on every
// User-agent value of the rule's cases, alone and beside groups naming the
// crawler and *, for several crawlers: the same verdict and deciding line.
func TestRule06_ReferenceAgreesOnStarValues(t *testing.T) {
	values := []string{
		"*", "* (+http://example.com/bot)", "* Disallow: /x", "*\tx", "*\vx", "*\fx",
		"**", "*foo", "*/1.0", "*\u00A0x", "*Mandelbot", "Mandelbot*", "Mandelbot", "foo",
	}
	agents := []string{ourAgent, "foo", "Googlebot", "Mandelbot/2.1 (+https://fractle.example/bot)"}
	targets := []string{"/", "/x", "/a", "/b", "/c", "/star", "/named"}
	checked := 0
	for _, a := range values {
		for _, b := range values {
			for _, layout := range []string{
				"User-agent: %[1]s\nDisallow: /a\nUser-agent: %[2]s\nDisallow: /b\n",
				"User-agent: %[1]s\nUser-agent: %[2]s\nDisallow: /a\nAllow: /a/b\n",
				"User-agent: %[1]s\nDisallow: /a\nUser-agent: *\nDisallow: /star\nUser-agent: %[2]s\nDisallow: /c\n",
				"User-agent: %[1]s\n",
			} {
				body := []byte(fmt.Sprintf(layout, a, b))
				r, written := Parse(body), refParse(body)
				for _, agent := range agents {
					g, rg := r.For(agent), refFor(written, agent)
					for _, target := range targets {
						if got, want := g.Test(target), rg.verdict(target); got != want {
							t.Errorf("%q for %s: Test(%q) = %+v, reference %+v", strings.ReplaceAll(string(body), "\n", " | "), agent, target, got, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
