package robotstxt

import (
	"strings"
	"testing"
)

// expect is one URL and the verdict a test wants for it.
type expect struct {
	target  string // a path and query, or an absolute URL
	allowed bool
	line    int // the deciding rule's line; 0 means "do not check"
}

// robotsOf joins lines with LF, so examples can be quoted line by line.
func robotsOf(lines ...string) []byte {
	return []byte(strings.Join(lines, "\n") + "\n")
}

// checkAgent parses body and checks every expectation for agent.
func checkAgent(t *testing.T, body []byte, agent string, cases ...expect) {
	t.Helper()
	g := Parse(body).For(agent)
	for _, c := range cases {
		target := c.target
		if !strings.HasPrefix(target, "/") {
			var err error
			if target, err = PathAndQuery(c.target); err != nil {
				t.Fatalf("PathAndQuery(%q): %v", c.target, err)
			}
		}
		v := g.Test(target)
		if v.Allowed != c.allowed {
			t.Errorf("%s: Test(%q) allowed = %v, want %v (verdict %+v)", agent, c.target, v.Allowed, c.allowed, v)
		}
		if c.line != 0 && v.Rule.Line != c.line {
			t.Errorf("%s: Test(%q) decided by line %d (%v), want line %d", agent, c.target, v.Rule.Line, v.Rule, c.line)
		}
	}
}

// allow and block build expectations.
func allow(target string) expect { return expect{target: target, allowed: true} }
func block(target string) expect { return expect{target: target, allowed: false} }

// byLine returns the expectation with the deciding line to check.
func (e expect) byLine(n int) expect { e.line = n; return e }

// noteKinds returns the kinds of the notes of r on line n.
func noteKinds(r *Robots, n int) []NoteKind {
	var ks []NoteKind
	for _, note := range r.Notes() {
		if note.Line == n {
			ks = append(ks, note.Kind)
		}
	}
	return ks
}

// hasNote reports whether r has a note of kind on line n.
func hasNote(r *Robots, n int, kind NoteKind) bool {
	for _, k := range noteKinds(r, n) {
		if k == kind {
			return true
		}
	}
	return false
}
