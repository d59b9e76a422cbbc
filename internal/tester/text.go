package tester

import (
	"fmt"
	"io"
	"strings"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/robotstxt"
)

// WriteVerdicts writes one line per URL, in input order: "ALLOWED<TAB>URL" or
// "DISALLOWED<TAB>URL" (docs/design.md contract); with explain, a third tab-separated field says why.
func (r Report) WriteVerdicts(w io.Writer, explain bool) error {
	var b strings.Builder
	for _, res := range r.Results {
		word := "ALLOWED"
		if !res.Allowed {
			word = "DISALLOWED"
		}
		b.WriteString(word)
		b.WriteByte('\t')
		b.WriteString(res.URL)
		if explain {
			b.WriteByte('\t')
			b.WriteString(r.Why(res))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write verdicts: %w", err)
	}
	return nil
}

// Why explains one verdict in a line.
func (r Report) Why(res Result) string {
	switch r.Decision.Kind {
	case robots.KindAllowAll, robots.KindUnreachable:
		return r.Decision.Reason()
	}
	v := res.Verdict
	switch v.Reason {
	case robotstxt.ReasonRule:
		return fmt.Sprintf("line %d: %s", v.Rule.Line, v.Rule)
	case robotstxt.ReasonRobotsTxt:
		return "/robots.txt itself is always allowed"
	case robotstxt.ReasonNoGroup:
		return fmt.Sprintf("no group applies to %s: everything is allowed", r.Agent)
	default:
		return fmt.Sprintf("no rule of the group matches %s: allowed", res.Target)
	}
}

// WriteSummary writes, for people, what the tester read: the robots.txt and how it was
// obtained, the group chosen for the agent (or that none applies), the lines that were ignored
// and why, the sitemaps, and any warnings. The CLI sends it to standard error under --explain
// so that standard output keeps exactly one line per URL.
func (r Report) WriteSummary(w io.Writer) error {
	var b strings.Builder
	rb := r.Decision.Robots
	fmt.Fprintf(&b, "robots.txt: %s", r.Source)
	if r.Decision.Status != 0 {
		fmt.Fprintf(&b, " (%s)", r.Decision.Reason())
	}
	fmt.Fprintf(&b, "\n  %d line(s) parsed", rb.Lines())
	if rb.Truncated() || r.Decision.Truncated {
		b.WriteString("; the file is longer than the 500 KiB a crawler must read and was cut there (robots.txt rule: rules past the limit may be ignored)")
	}
	b.WriteByte('\n')
	if r.Decision.Kind == robots.KindRules {
		b.WriteString(describeGroup(r.Group, r.Agent))
	}
	notes := rb.Notes()
	if len(notes) > 0 {
		fmt.Fprintf(&b, "notes (%d):\n", len(notes))
		for _, n := range notes {
			fmt.Fprintf(&b, "  line %d: %q: %s\n", n.Line, n.Text, n.Message())
		}
	}
	for _, s := range rb.Sitemaps() {
		fmt.Fprintf(&b, "sitemap: %s\n", s)
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

func describeGroup(g *robotstxt.Group, agent string) string {
	var b strings.Builder
	switch g.Selection() {
	case robotstxt.SelectedNone:
		fmt.Fprintf(&b, "group: none applies to %s (no User-agent line names it and there is no \"User-agent: *\"): everything is allowed\n", agent)
		return b.String()
	case robotstxt.SelectedByName:
		fmt.Fprintf(&b, "group: the one naming %s", agent)
	case robotstxt.SelectedByStar:
		fmt.Fprintf(&b, "group: no group names %s, so the \"User-agent: *\" group applies", agent)
	}
	lines := make([]string, 0, len(g.Agents()))
	for _, a := range g.Agents() {
		lines = append(lines, fmt.Sprintf("%d", a.Line))
	}
	fmt.Fprintf(&b, " (User-agent line(s) %s), %d rule(s)", strings.Join(lines, ", "), len(g.Rules()))
	if len(g.Rules()) == 0 {
		// rule 4: a group without rules still applies, and allows everything.
		b.WriteString(": it has no rules, so everything is allowed")
	}
	if d, ok := g.CrawlDelay(); ok {
		fmt.Fprintf(&b, ", Crawl-delay %s (not obeyed unless the crawl opts in)", d)
	}
	b.WriteString("\n")
	for _, rule := range g.Rules() {
		fmt.Fprintf(&b, "  line %d: %s\n", rule.Line, rule)
	}
	return b.String()
}
