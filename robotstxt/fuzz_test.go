package robotstxt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addCorpusSeeds adds a few real robots.txt files of at most 8 KiB (read
// at test time, never copied) to a fuzz target's seed corpus: some
// well-known ones, then odd ones (BOM, CR only, HTML).
func addCorpusSeeds(f *testing.F, add func(body []byte)) {
	dir := filepath.Join(corpusDir, "robots")
	for _, name := range []string{"www.google.com", "www.wikipedia.org", "www.etsy.com", "4chan.org", "9gag.com"} {
		if body, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(body) <= 8<<10 {
			add(body)
		}
	}
	entries, _ := os.ReadDir(dir)
	odd := 0
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(body) > 8<<10 {
			continue
		}
		s := string(body)
		if strings.HasPrefix(s, "\uFEFF") || strings.Contains(s, "\r") && !strings.Contains(s, "\n") ||
			strings.HasPrefix(strings.TrimSpace(s), "<") {
			add(body)
			if odd++; odd == 8 {
				break
			}
		}
	}
}

// FuzzParse: Parse, For and Test never panic (rule 11) and are
// deterministic: the same input parsed twice gives the same verdict, and
// every note is well formed.
func FuzzParse(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /\n"), "Mandelbot", "/x")
	f.Add([]byte("\uFEFFUser-agent: Mandelbot\r\rDisallow: /*.pdf$\rAllow: /%2A\n"), "mandelbot/1.0", "/a.pdf")
	f.Add([]byte("<html>\x00\xff\nSitemap: http://e.com/s\nCrawl-delay: 1.5\n"), "x", "?q")
	addCorpusSeeds(f, func(body []byte) { f.Add(body, "Mandelbot", "/index.html") })
	f.Fuzz(func(t *testing.T, body []byte, agent, target string) {
		r1, r2 := Parse(body), Parse(body)
		g1, g2 := r1.For(agent), r2.For(agent)
		v1, v2 := g1.Test(target), g2.Test(target)
		if v1 != v2 || v1 != g1.Test(target) {
			t.Fatalf("verdicts differ: %+v, %+v", v1, v2)
		}
		if g1.Selection() != g2.Selection() {
			t.Fatalf("selections differ")
		}
		if !v1.Allowed && (v1.Reason != ReasonRule || v1.Rule.Line == 0 || v1.Rule.Allow) {
			t.Fatalf("a disallow must come from a Disallow rule: %+v", v1)
		}
		if v1.Reason == ReasonRule && v1.Rule.Line > r1.Lines() {
			t.Fatalf("deciding line %d beyond %d lines", v1.Rule.Line, r1.Lines())
		}
		prev := 0
		for _, n := range r1.Notes() {
			if n.Line < prev || n.Line < 1 || n.Line > r1.Lines() || len(n.Text) > MaxNoteText || n.Message() == "" {
				t.Fatalf("bad note %+v (lines %d)", n, r1.Lines())
			}
			prev = n.Line
		}
		for _, g := range r1.Groups() {
			if len(g.Agents()) == 0 || g.Selection() == SelectedNone {
				t.Fatalf("bad group: %d agents, selection %v", len(g.Agents()), g.Selection())
			}
		}
	})
}

// fuzzRobots builds a robots.txt body from fuzzed patterns: line i of
// patterns becomes a Disallow line when i is even and an Allow line when it
// is odd, all in one * group.
func fuzzRobots(patterns string) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i, p := range strings.FieldsFunc(patterns, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if i == 64 {
			break
		}
		if i%2 == 0 {
			b.WriteString("Disallow: ")
		} else {
			b.WriteString("Allow: ")
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// FuzzMatchAgreesWithReference: the fast matcher and the reference give
// the same verdict and deciding line (rules 13-18) for fuzzed patterns and
// targets, and for targets built from the patterns.
func FuzzMatchAgreesWithReference(f *testing.F) {
	f.Add("/*.pdf$\n/files\n/doc****", "/files.pdf")
	f.Add("/money$\n/earn$*", "/earn$1")
	f.Add("/a%2Ab\n/a*b\n/%7E\n/caf\u00e9", "/a%2ab")
	f.Add("*\n/%zz%\n/x$$", "?")
	f.Add("/x*yx*y$\n/*/private/", "/xyxyxy")
	addCorpusSeeds(f, func(body []byte) {
		var pats []string
		for _, r := range Parse(body).For(ourAgent).Rules() {
			pats = append(pats, r.Pattern)
		}
		if len(pats) > 0 {
			f.Add(strings.Join(pats[:min(len(pats), 16)], "\n"), "/"+pats[0])
		}
	})
	f.Fuzz(func(t *testing.T, patterns, target string) {
		if len(target) > 1024 || len(patterns) > 2048 {
			return // keep the recursive reference quick
		}
		g := Parse(fuzzRobots(patterns)).For(ourAgent)
		rg := newRefGroup(g)
		for _, tg := range append([]string{target}, syntheticTargets(g, 8)...) {
			if got, want := g.Test(tg), rg.verdict(tg); got != want {
				t.Fatalf("Test(%q) = %+v, reference %+v; rules %v", tg, got, want, g.Rules())
			}
		}
	})
}

// FuzzParseAgreesWithReference: Parse and For choose the same rules as the
// reference parser (rules 1-7, rule 6 revised included), so the crawler's
// verdict on any target equals the reference's, deciding line and all.
func FuzzParseAgreesWithReference(f *testing.F) {
	f.Add([]byte("User-agent: * (+http://example.com/bot)\nDisallow: /a\nUser-agent: Mandelbot\nAllow: /a/b\n"), "Mandelbot", "/a/b")
	f.Add([]byte("User-agent: * Disallow: /x\nDisallow: /y\n"), "Googlebot", "/y")
	f.Add([]byte("User-agent: *\tx\nUser-agent: **\nUser-agent: *foo\nDisallow: /\n"), "foo", "/x")
	f.Add([]byte("User-agent: */1.0\nDisallow: /\nUser-agent: *\fbot\nDisallow: /z\n"), "Mandelbot/2.1", "/z")
	addCorpusSeeds(f, func(body []byte) { f.Add(body, "Mandelbot", "/index.html") })
	f.Fuzz(func(t *testing.T, body []byte, agent, target string) {
		if len(body) > 8<<10 || len(target) > 256 {
			return // keep the recursive reference quick
		}
		got := Parse(body).For(agent).Test(target)
		if want := refFor(refParse(body), agent).verdict(target); got != want {
			t.Fatalf("agent %q, Test(%q) = %+v, reference %+v; body %q", agent, target, got, want, body)
		}
	})
}
