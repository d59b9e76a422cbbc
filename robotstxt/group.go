package robotstxt

import (
	"sync"
	"time"
)

// Group is the set of rules that applies to one crawler: the merged group
// that names it, or the * group (docs/robots-rules.md rules 4-7). A Group is
// immutable once Parse has returned it and safe for concurrent use; its
// matcher is compiled on the first Test.
//
// The zero Group applies to no agent: it has no rules and allows
// everything, with Selection SelectedNone and Reason ReasonNoGroup.
type Group struct {
	sel  Selection
	body *groupBody // nil for the zero Group
}

// groupBody is a merged group. The Group values that Robots hands out are
// views of it that differ only in how they were selected.
type groupBody struct {
	agents   []Agent
	rules    []Rule
	delay    time.Duration
	hasDelay bool

	byName Group // the view Robots.For returns when an agent is named
	byStar Group // the view Robots.For returns as the * fallback

	once sync.Once
	m    *matcher
}

// init sets up a zero groupBody in place (it holds a sync.Once and
// pointers to itself, so it is never copied).
func (b *groupBody) init(agents []Agent, rules []Rule, delay time.Duration, hasDelay bool) {
	b.agents, b.rules, b.delay, b.hasDelay = agents, rules, delay, hasDelay
	b.byName = Group{sel: SelectedByName, body: b}
	b.byStar = Group{sel: SelectedByStar, body: b}
}

// matcher returns the compiled rules, compiling them on first use.
func (b *groupBody) matcher() *matcher {
	b.once.Do(func() { b.m = compile(b.rules) })
	return b.m
}

// Selection reports how Robots.For chose the group. For an element of
// Robots.Groups it is SelectedByName, or SelectedByStar when * is the only
// agent the group names.
func (g *Group) Selection() Selection {
	if g == nil {
		return SelectedNone
	}
	return g.sel
}

// Agents returns the User-agent lines that name the group, in line order;
// for a merged group, the lines of every group merged (rule 5). Lines with
// an empty value are not included. The caller must not modify the slice.
func (g *Group) Agents() []Agent {
	if g == nil || g.body == nil {
		return nil
	}
	return g.body.agents
}

// Rules returns the group's Allow and Disallow rules in file order, those
// that can never match included (rule 14). The caller must not modify the
// slice.
func (g *Group) Rules() []Rule {
	if g == nil || g.body == nil {
		return nil
	}
	return g.body.rules
}

// CrawlDelay returns the group's Crawl-delay and whether it has one
// (rule 9): the first valid Crawl-delay line in the group, in file order
// across merged groups. The library only reports it; whether to obey it is
// the crawler's policy.
func (g *Group) CrawlDelay() (time.Duration, bool) {
	if g == nil || g.body == nil {
		return 0, false
	}
	return g.body.delay, g.body.hasDelay
}

// Test decides whether the group lets its crawler fetch pathAndQuery, the
// path and "?query" of a URL exactly as the crawler requests it, without
// fragment (rule 12; see PathAndQuery). An empty path is "/": "" and "?q"
// are read as "/" and "/?q". A target that does not start with "/" can only
// be matched by patterns that start with "*".
//
// The target is normalised like the patterns (rule 13); the matching rule
// with the longest pattern decides, Allow winning ties; no matching rule
// means allowed (rule 16); "/robots.txt" is always allowed (rule 18).
//
// Test is safe for concurrent use. It runs in time linear in
// len(pathAndQuery) x the total length of the patterns at worst, and does
// not allocate unless the normalised target is longer than 16 KiB
// (rule 19).
func (g *Group) Test(pathAndQuery string) Verdict {
	if g == nil || g.body == nil {
		return Verdict{Allowed: true, Reason: ReasonNoGroup}
	}
	return g.body.matcher().test(pathAndQuery)
}
