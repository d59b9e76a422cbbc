package web

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/robotstxt"
)

// docs/robots-rules.md rule 6 (revised, issue 33) through the web tester: "*" followed by
// whitespace and more text is the * group, and "*" joined to text names nobody; the page says
// which group applies and notes the line, as `robots test --explain` does.
func TestRule06_WebTesterStarValues(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	for _, tt := range []struct {
		robots    string
		want      [][]string
		selection string
		note      robotstxt.NoteKind
	}{
		{
			robots:    "User-agent: * (+http://example.com/bot)\nDisallow: /\n",
			want:      [][]string{{"/x", "DISALLOWED", "2", "Disallow: /"}},
			selection: "No group names Mandelbot, so the group for * applies (User-agent line 1).",
			note:      robotstxt.NoteAgentStarText,
		},
		{
			robots:    "User-agent: * Disallow: /x\nDisallow: /y\n",
			want:      [][]string{{"/x", "ALLOWED", "—", "—"}},
			selection: "No group names Mandelbot, so the group for * applies (User-agent line 1).",
			note:      robotstxt.NoteAgentStarText,
		},
		{
			robots:    "User-agent: */1.0\nDisallow: /\n",
			want:      [][]string{{"/x", "ALLOWED", "—", "—"}},
			selection: `No group applies to Mandelbot: no User-agent line names it and there is no "User-agent: *", so everything is allowed.`,
			note:      robotstxt.NoteAgentStarJoined,
		},
	} {
		resp, body := postTester(t, srv, tt.robots, "/x", "")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%q: status %d", tt.robots, resp.StatusCode)
			continue
		}
		if diff := cmp.Diff(tt.want, verdicts(t, body)); diff != "" {
			t.Errorf("%q: verdicts (-want +got):\n%s", tt.robots, diff)
		}
		doc := parseHTML(t, body)
		if got := text(byID(doc, "selection")); got != tt.selection {
			t.Errorf("%q: selection %q, want %q", tt.robots, got, tt.selection)
		}
		notes := rows(doc, "notes")
		if len(notes) == 0 || notes[0][0] != "1" || notes[0][2] != tt.note.String() {
			t.Errorf("%q: notes %q, want line 1: %q first", tt.robots, notes, tt.note.String())
		}
	}
}
