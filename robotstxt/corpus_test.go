package robotstxt

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The real corpus lives beside the repository: /work/shared/corpus seen
// from /work/main/robotstxt. Tests that need it skip when it is absent,
// unless MANDELBOT_REQUIRE_ALL=1 asks for every test to run.
const corpusDir = "../../shared/corpus"

// corpusSite is one site of the corpus: its robots.txt body and the URLs
// seen on it (nil when the corpus has no links for it).
type corpusSite struct {
	name  string
	body  []byte
	links []string
}

// loadCorpus reads the corpus, or skips the test when it is missing.
func loadCorpus(tb testing.TB) []corpusSite {
	tb.Helper()
	entries, err := os.ReadDir(filepath.Join(corpusDir, "robots"))
	if err != nil {
		if os.Getenv("MANDELBOT_REQUIRE_ALL") == "1" {
			tb.Fatalf("corpus required: %v", err)
		}
		tb.Skipf("corpus not found (%v); set MANDELBOT_REQUIRE_ALL=1 to fail instead", err)
	}
	var sites []corpusSite
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(corpusDir, "robots", e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		s := corpusSite{name: e.Name(), body: body}
		if f, err := os.Open(filepath.Join(corpusDir, "links", e.Name())); err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if line := strings.TrimRight(sc.Text(), "\r"); line != "" {
					s.links = append(s.links, line)
				}
			}
			f.Close()
			if err := sc.Err(); err != nil {
				tb.Fatal(err)
			}
		}
		sites = append(sites, s)
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].name < sites[j].name })
	return sites
}

// corpusAgents are the crawlers the corpus check decides for: ours, and
// agents many corpus files name, so that named groups, merged groups and
// groups without rules (rules 4-6) are all exercised.
var corpusAgents = []string{ourAgent, "Googlebot", "Googlebot-Image", "bingbot", "MJ12bot"}

// Parse and the fast matcher agree with the reference parser and matcher
// on every URL of the corpus, for each of corpusAgents, and on paths built
// from every rule (docs/robots-rules.md rules 1-7 and 12-18; the brief's
// differential check): same verdict, same deciding line.
func TestCorpus_MatchAgreesWithReference(t *testing.T) {
	sites := loadCorpus(t)
	var urls, synthetic, badURLs, disallowed, sitesWithLinks int
	for _, s := range sites {
		r := Parse(s.body)
		compare := func(g *Group, rg *refGroup, target string) {
			got, want := g.Test(target), rg.verdict(target)
			if got != want {
				t.Errorf("%s: Test(%q) = %+v, reference %+v", s.name, target, got, want)
			}
			if !got.Allowed {
				disallowed++
			}
		}
		if len(s.links) > 0 {
			sitesWithLinks++
		}
		// The group each agent follows, from Parse, against the rules the
		// reference parser gives it (rules 1-7): the same verdict and line
		// for every URL.
		written := refParse(s.body)
		for i, agent := range corpusAgents {
			g := r.For(agent)
			rg := refFor(written, agent)
			for _, link := range s.links {
				target, err := PathAndQuery(link)
				if err != nil {
					if i == 0 {
						badURLs++
					}
					continue
				}
				if i == 0 {
					urls++
				}
				compare(g, rg, target)
			}
		}
		for _, grp := range r.Groups() {
			rg := newRefGroup(grp)
			// The reference tries every rule for every target; keep the
			// product bounded on files with thousands of rules.
			for _, target := range syntheticTargets(grp, max(10, 4000/(len(grp.Rules())+1))) {
				synthetic++
				compare(grp, rg, target)
			}
		}
	}
	t.Logf("%d sites (%d with links): %d corpus URLs, %d synthetic targets, %d disallowed, %d URLs that do not parse",
		len(sites), sitesWithLinks, urls, synthetic, disallowed, badURLs)
	if urls < 100000 || synthetic == 0 || disallowed == 0 {
		t.Errorf("the corpus check exercised too little: %d URLs, %d synthetic, %d disallowed", urls, synthetic, disallowed)
	}
}

// docs/robots-rules.md rules 1, 10 and 11 on real files: BOMs, CRLF,
// CR-only, HTML, empty files; parsing never fails and notes stay sane.
func TestCorpus_ParsingNeverFails(t *testing.T) {
	sites := loadCorpus(t)
	var bom, crOnly, html, empty, truncated int
	for _, s := range sites {
		r := Parse(s.body)
		for i, n := range r.Notes() {
			if n.Line < 1 || n.Line > r.Lines() || len(n.Text) > MaxNoteText {
				t.Errorf("%s: bad note %+v (%d lines)", s.name, n, r.Lines())
			}
			if i > 0 && n.Line < r.Notes()[i-1].Line {
				t.Errorf("%s: notes out of line order", s.name)
			}
		}
		for _, g := range r.Groups() {
			if len(g.Agents()) == 0 {
				t.Errorf("%s: a group without agents", s.name)
			}
		}
		switch {
		case bytes.HasPrefix(s.body, []byte("\xEF\xBB\xBF")):
			bom++
			// The BOM must not spoil the first line.
			if hasNote(r, 1, NoteUnknownField) || hasNote(r, 1, NoteNoColon) {
				t.Errorf("%s: BOM not skipped: %v", s.name, r.Notes()[0])
			}
		case len(s.body) == 0:
			empty++
			if r.Lines() != 0 || len(r.Groups()) != 0 || len(r.Notes()) != 0 {
				t.Errorf("%s: empty file gave %d lines, %d groups", s.name, r.Lines(), len(r.Groups()))
			}
		}
		if bytes.IndexByte(s.body, '\r') >= 0 && bytes.IndexByte(s.body, '\n') < 0 {
			crOnly++
			if want := bytes.Count(s.body, []byte("\r")); r.Lines() < want {
				t.Errorf("%s: CR-only file read as %d lines, want %d", s.name, r.Lines(), want)
			}
		}
		if len(r.Notes()) > 0 && hasNote(r, r.Notes()[0].Line, NoteHTML) {
			html++
		}
		if r.Truncated() {
			truncated++
		}
	}
	t.Logf("%d files: %d with BOM, %d CR-only, %d HTML, %d empty, %d over the size limit", len(sites), bom, crOnly, html, empty, truncated)
	if bom == 0 || crOnly == 0 || html == 0 || empty == 0 || truncated == 0 {
		t.Error("the corpus should hold each kind of odd file")
	}
}

// docs/robots-rules.md rule 19 on real data: no Test of any corpus URL
// allocates, with each site's own group.
func TestCorpus_TestDoesNotAllocate(t *testing.T) {
	sites := loadCorpus(t)
	checked := 0
	for _, s := range sites {
		var targets []string
		for _, link := range s.links {
			if tg, err := PathAndQuery(link); err == nil {
				targets = append(targets, tg)
			}
		}
		if len(targets) == 0 {
			continue
		}
		g := Parse(s.body).For(ourAgent)
		g.Test("/") // compile
		if a := testing.AllocsPerRun(2, func() {
			for _, tg := range targets {
				g.Test(tg)
			}
		}); a != 0 {
			t.Errorf("%s: %.1f allocations for %d Tests, want 0", s.name, a, len(targets))
		}
		checked += len(targets)
	}
	t.Logf("%d URLs tested without allocating", checked)
}
