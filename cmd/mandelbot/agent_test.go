package main

import (
	"strings"
	"testing"
)

// docs/robots-rules.md rule 4 (revised): `robots test --explain` on a file ending in a bare
// "User-agent: Mandelbot" says that the group applies and allows everything, rather than
// falling back to the * group.
func TestRule04_RobotsTestExplainGroupWithoutRules(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /\n\nUser-agent: Mandelbot\n")
	code, out, errOut := runCLI(t, "", "robots", "test", "--explain", robots, "https://x.example/private")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout %q\nstderr %q", code, out, errOut)
	}
	if !strings.HasPrefix(out, "ALLOWED\thttps://x.example/private\t") {
		t.Errorf("stdout %q, want ALLOWED", out)
	}
	for _, want := range []string{
		"group: the one naming Mandelbot (User-agent line(s) 4), 0 rule(s): it has no rules, so everything is allowed",
		"line 4: \"User-agent: Mandelbot\": User-agent not followed by any Allow or Disallow line: the group allows everything to the agents it names",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// docs/robots-rules.md rule 6 (revised): --agent is checked with the same agent-token definition
// robots.txt matching uses (robotstxt.AgentToken): a value must be exactly a token, so that the
// crawler names itself in robots.txt exactly as it was told. `robots test` also accepts a
// "/version", which robots.txt matching drops.
func TestRule06_AgentFlagIsAnAgentToken(t *testing.T) {
	data := t.TempDir()
	for _, bad := range []string{"", "Mandel bot", "Mandel.bot", "Mandelbot*", "(bot)", "Mandelbot/2.1"} {
		code, _, errOut := runCLI(t, "", "serve", "--data", data, "--agent", bad)
		if code != exitUsage || !strings.Contains(errOut, "--agent") {
			t.Errorf("serve --agent %q: exit %d, stderr %q; want a usage error", bad, code, errOut)
		}
		code, _, errOut = runCLI(t, "", "crawl", "--data", data, "--agent", bad, "http://127.0.0.1:1/")
		if code != exitUsage || !strings.Contains(errOut, "--agent") {
			t.Errorf("crawl --agent %q: exit %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
	robots := writeFile(t, "robots.txt", "User-agent: Mandelbot-Image\nDisallow: /\n")
	for _, tc := range []struct {
		agent string
		code  int
	}{
		{"Mandelbot_2", exitOK},
		{"Mandelbot/2.1", exitOK},
		{"Mandelbot-Image", exitFailure},
		{"Mandelbot-Image/1.0", exitFailure},
		{"Mandel.bot", exitUsage},
		{"/2.1", exitUsage},
	} {
		code, out, errOut := runCLI(t, "", "robots", "test", "--agent", tc.agent, robots, "/x")
		if code != tc.code {
			t.Errorf("robots test --agent %q: exit %d, want %d\nstdout %q\nstderr %q", tc.agent, code, tc.code, out, errOut)
		}
	}
}
