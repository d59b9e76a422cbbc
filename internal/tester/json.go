package tester

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/robotstxt"
)

// jsonReport is the stable shape of `mandelbot robots test --json`; field names are part of the
// command-line contract once released, so they only ever grow.
type jsonReport struct {
	Agent    string       `json:"agent"`
	Robots   jsonRobots   `json:"robots"`
	Group    *jsonGroup   `json:"group,omitempty"`
	Notes    []jsonNote   `json:"notes"`
	Sitemaps []string     `json:"sitemaps"`
	Results  []jsonResult `json:"results"`
	Warnings []string     `json:"warnings"`
}

type jsonRobots struct {
	Source    string   `json:"source"`
	Decision  string   `json:"decision"` // rules, allow_all, unreachable
	Status    int      `json:"status,omitempty"`
	Reason    string   `json:"reason"`
	Redirects []string `json:"redirects,omitempty"`
	Lines     int      `json:"lines"`
	Truncated bool     `json:"truncated"`
}

type jsonGroup struct {
	Selection  string      `json:"selection"` // by_name, by_star, none
	Agents     []jsonAgent `json:"agents"`
	Rules      []jsonRule  `json:"rules"`
	CrawlDelay *float64    `json:"crawl_delay_seconds,omitempty"`
}

type jsonAgent struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

type jsonRule struct {
	Allow   bool   `json:"allow"`
	Pattern string `json:"pattern"`
	Line    int    `json:"line"`
}

type jsonNote struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

type jsonResult struct {
	URL     string `json:"url"`
	Target  string `json:"target"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Why     string `json:"why"`
}

// WriteJSON writes the whole report as one JSON document.
func (r Report) WriteJSON(w io.Writer) error {
	rb := r.Decision.Robots
	out := jsonReport{
		Agent: r.Agent,
		Robots: jsonRobots{
			Source: r.Source, Decision: r.Decision.Kind.String(), Status: r.Decision.Status,
			Reason: r.Decision.Reason(), Redirects: r.Decision.Redirects,
			Lines: rb.Lines(), Truncated: rb.Truncated() || r.Decision.Truncated,
		},
		Notes:    []jsonNote{},
		Sitemaps: append([]string{}, rb.Sitemaps()...),
		Results:  []jsonResult{},
		Warnings: append([]string{}, r.Warnings...),
	}
	if r.Decision.Kind == robots.KindRules {
		out.Group = groupJSON(r.Group)
	}
	for _, n := range rb.Notes() {
		out.Notes = append(out.Notes, jsonNote{Line: n.Line, Text: n.Text, Reason: n.Message()})
	}
	for _, res := range r.Results {
		jr := jsonResult{URL: res.URL, Target: res.Target, Allowed: res.Allowed, Why: r.Why(res)}
		if r.Decision.Kind == robots.KindRules && res.Verdict.Reason == robotstxt.ReasonRule {
			jr.Line, jr.Rule = res.Verdict.Rule.Line, res.Verdict.Rule.String()
		}
		out.Results = append(out.Results, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

func groupJSON(g *robotstxt.Group) *jsonGroup {
	jg := &jsonGroup{Agents: []jsonAgent{}, Rules: []jsonRule{}}
	switch g.Selection() {
	case robotstxt.SelectedByName:
		jg.Selection = "by_name"
	case robotstxt.SelectedByStar:
		jg.Selection = "by_star"
	default:
		jg.Selection = "none"
	}
	for _, a := range g.Agents() {
		jg.Agents = append(jg.Agents, jsonAgent{Name: a.Name, Line: a.Line})
	}
	for _, rule := range g.Rules() {
		jg.Rules = append(jg.Rules, jsonRule{Allow: rule.Allow, Pattern: rule.Pattern, Line: rule.Line})
	}
	if d, ok := g.CrawlDelay(); ok {
		secs := d.Seconds()
		jg.CrawlDelay = &secs
	}
	return jg
}
