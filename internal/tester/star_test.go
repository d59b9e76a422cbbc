package tester

import (
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/robotstxt"
)

// explain runs the tester on body for Mandelbot as `mandelbot robots test --explain` does, and
// returns its standard output (one line per URL) and its summary (standard error).
func explain(t *testing.T, body string, urls ...string) (verdicts, summary string) {
	t.Helper()
	dec := robots.Decision{Kind: robots.KindRules, Final: "robots.txt", MaxAge: -1, Robots: robotstxt.Parse([]byte(body))}
	rep, err := Check(dec, "robots.txt", "Mandelbot", urls)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	var out, errOut strings.Builder
	if err := rep.WriteVerdicts(&out, true); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteSummary(&errOut); err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String()
}

// docs/robots-rules.md rule 6 (revised, issue 33), explained: a "*" followed by whitespace and
// more text is the * group, so the tester says the * group applies, decides by its rules, and
// tells the site owner that the text after "*" was not read.
func TestRule06_ExplainStarThenText(t *testing.T) {
	out, summary := explain(t, "User-agent: * (+http://example.com/bot)\nDisallow: /\n", "https://x.example/page")
	if want := "DISALLOWED\thttps://x.example/page\tline 2: Disallow: /\n"; out != want {
		t.Errorf("verdicts %q, want %q", out, want)
	}
	for _, want := range []string{
		`no group names Mandelbot, so the "User-agent: *" group applies (User-agent line(s) 1)`,
		`line 1: "User-agent: * (+http://example.com/bot)": text after the * is not read: the line names the * group`,
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}

// Rule 6 revised, explained: a rule written on the User-agent line after "* " is no rule; the
// explanation says so, and that the * group it names has no rules.
func TestRule06_ExplainStarThenRuleOnTheLine(t *testing.T) {
	out, summary := explain(t, "User-agent: * Disallow: /x\n", "/x")
	if !strings.HasPrefix(out, "ALLOWED\t/x\t") {
		t.Errorf("verdicts %q, want /x allowed", out)
	}
	for _, want := range []string{
		`the "User-agent: *" group applies (User-agent line(s) 1), 0 rule(s): it has no rules, so everything is allowed`,
		"a rule written on it is no rule",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}

// Rule 6 revised, explained: "*" joined to other text names nobody, so no group applies, and
// the note says why the line is not the * group.
func TestRule06_ExplainStarJoinedToText(t *testing.T) {
	for _, value := range []string{"**", "*foo", "*/1.0"} {
		out, summary := explain(t, "User-agent: "+value+"\nDisallow: /\n", "/x")
		if want := "ALLOWED\t/x\tno group applies to Mandelbot: everything is allowed\n"; out != want {
			t.Errorf("%s: verdicts %q, want %q", value, out, want)
		}
		for _, want := range []string{"group: none applies to Mandelbot", "* joined to other text is not the * group"} {
			if !strings.Contains(summary, want) {
				t.Errorf("%s: summary lacks %q:\n%s", value, want, summary)
			}
		}
	}
}
