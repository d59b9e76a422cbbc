package robotstxt

import (
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Parse parses a robots.txt body (robots-semantics.md section A). It never
// fails (rule 11): any byte sequence gives a rule set, possibly empty, and
// the lines it ignored or found suspicious are reported by Robots.Notes.
// Only the first DefaultMaxBytes octets are read unless MaxBytes says
// otherwise (rule 10). Parse does not keep body; the caller may reuse it.
func Parse(body []byte, opts ...Option) *Robots {
	p := parser{cfg: newConfig(opts)}
	src := body
	if len(body) > p.cfg.maxBytes {
		src = body[:p.cfg.maxBytes]
		p.r.truncated = true
		// The last line is cut unless its terminator is the first octet
		// past the limit.
		p.cutLast = body[p.cfg.maxBytes] != '\n' && body[p.cfg.maxBytes] != '\r'
	}
	p.run(string(src))
	p.finish()
	return &p.r
}

// field is a recognised robots.txt field.
type field uint8

const (
	fieldUnknown field = iota
	fieldUserAgent
	fieldAllow
	fieldDisallow
	fieldSitemap
	fieldCrawlDelay
)

// fieldOf recognises a field name, ASCII case-insensitively (rule 2).
// Anything else, typos included, is unknown (rule 3).
func fieldOf(name string) field {
	switch len(name) {
	case 5:
		if equalFold(name, "allow") {
			return fieldAllow
		}
	case 7:
		if equalFold(name, "sitemap") {
			return fieldSitemap
		}
	case 8:
		if equalFold(name, "disallow") {
			return fieldDisallow
		}
	case 10:
		if equalFold(name, "user-agent") {
			return fieldUserAgent
		}
	case 11:
		if equalFold(name, "crawl-delay") {
			return fieldCrawlDelay
		}
	}
	return fieldUnknown
}

// parseState is where the parser is in the group grammar (rule 4).
type parseState uint8

const (
	stateStart  parseState = iota // no User-agent line yet
	stateAgents                   // the last group line was a User-agent line
	stateRules                    // the last group line was an Allow or Disallow line
)

// rawGroup is a group as written: User-agent lines then rule lines, as
// index ranges into the parser's agents and rules.
type rawGroup struct {
	agentLo, agentHi int
	ruleLo, ruleHi   int
	firstLine        int // line of the first User-agent line
	delay            time.Duration
	delayLine        int // line of the Crawl-delay that counts, 0 if none
}

// parser holds the state of one Parse call.
type parser struct {
	cfg     config
	r       Robots
	cutLast bool // the size limit cut the last line

	line     int // current line number
	state    parseState
	raws     []rawGroup
	agents   []Agent  // non-empty User-agent lines, in order
	agentRaw []string // the same lines as written, for notes
	keys     []string // agentKey of each agent line, set by merges
	rules    []Rule
	sitemap  map[string]int // sitemap URL -> line
	dropped  bool           // the note limit was reached
}

// run parses the text s, the body within the size limit.
func (p *parser) run(s string) {
	s = strings.TrimPrefix(s, "\uFEFF") // rule 1: a UTF-8 BOM is skipped
	badUTF8 := !utf8.ValidString(s)
	content := false
	lr := newLineReader(s)
	for {
		line, terminated, ok := lr.next()
		if !ok {
			break
		}
		p.line++
		if !terminated && p.cutLast {
			p.note(p.line, NoteCutByLimit, line, 0)
			break
		}
		if badUTF8 && !utf8.ValidString(line) {
			p.note(p.line, NoteInvalidUTF8, line, 0)
			badUTF8 = false
		}
		if !content {
			if t := trimBlank(line); t != "" {
				content = true
				if t[0] == '<' {
					p.note(p.line, NoteHTML, line, 0)
				}
			}
		}
		p.parseLine(line)
	}
	p.r.lines = p.line
}

// parseLine handles one line: <field>:<value>[#comment] (rule 2).
func (p *parser) parseLine(line string) {
	text := line
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	colon := strings.IndexByte(text, ':')
	if colon < 0 {
		if trimBlank(text) != "" {
			p.note(p.line, NoteNoColon, line, 0)
		}
		return
	}
	value := trimBlank(text[colon+1:])
	switch fieldOf(trimBlank(text[:colon])) {
	case fieldUserAgent:
		p.userAgent(line, value)
	case fieldAllow:
		p.rule(line, value, true)
	case fieldDisallow:
		p.rule(line, value, false)
	case fieldSitemap:
		p.sitemapLine(line, value)
	case fieldCrawlDelay:
		p.crawlDelay(line, value)
	default:
		p.note(p.line, NoteUnknownField, line, 0)
	}
}

// userAgent handles a User-agent line. Only one that follows a rule line
// (or is the first) starts a new group (rule 4).
func (p *parser) userAgent(line, value string) {
	if p.state != stateAgents {
		p.raws = append(p.raws, rawGroup{
			agentLo: len(p.agents), agentHi: len(p.agents),
			ruleLo: len(p.rules), ruleHi: len(p.rules),
			firstLine: p.line,
		})
		p.state = stateAgents
	}
	if value != "*" && productToken(value) == "" {
		p.note(p.line, NoteEmptyAgent, line, 0)
		return
	}
	if value != "*" && strings.IndexByte(value, '*') >= 0 {
		p.note(p.line, NoteAgentWildcard, line, 0)
	}
	p.agents = append(p.agents, Agent{Name: value, Line: p.line})
	p.agentRaw = append(p.agentRaw, line)
	p.raws[len(p.raws)-1].agentHi = len(p.agents)
}

// rule handles an Allow or Disallow line.
func (p *parser) rule(line, value string, allow bool) {
	if p.state == stateStart {
		p.note(p.line, NoteRuleBeforeAgent, line, 0) // rule 4
		return
	}
	p.state = stateRules // even an empty rule ends the User-agent lines
	if value == "" {     // rule 17
		if allow {
			p.note(p.line, NoteEmptyAllow, line, 0)
		} else {
			p.note(p.line, NoteEmptyDisallow, line, 0)
		}
		return
	}
	pattern := normalizePattern(value) // rule 13
	if pattern[0] != '/' && pattern[0] != '*' {
		p.note(p.line, NotePatternNoSlash, line, 0) // rule 14
	}
	p.rules = append(p.rules, Rule{Allow: allow, Pattern: pattern, Line: p.line})
	p.raws[len(p.raws)-1].ruleHi = len(p.rules)
}

// sitemapLine handles a Sitemap line: global wherever it is (rule 8).
func (p *parser) sitemapLine(line, value string) {
	if !isAbsoluteURL(value) {
		p.note(p.line, NoteSitemapNotAbsolute, line, 0)
		return
	}
	if first, ok := p.sitemap[value]; ok {
		p.note(p.line, NoteSitemapRepeated, line, first)
		return
	}
	if p.sitemap == nil {
		p.sitemap = make(map[string]int)
	}
	p.sitemap[value] = p.line
	p.r.sitemaps = append(p.r.sitemaps, value)
}

// isAbsoluteURL reports whether v parses as a URL with a scheme and a host.
func isAbsoluteURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && u.Scheme != "" && u.Host != ""
}

// crawlDelay handles a Crawl-delay line: it belongs to the current group
// and never starts or ends one (rules 4 and 9).
func (p *parser) crawlDelay(line, value string) {
	if p.state == stateStart {
		p.note(p.line, NoteCrawlDelayNoGroup, line, 0)
		return
	}
	d, ok := parseDelay(value)
	if !ok {
		p.note(p.line, NoteCrawlDelayInvalid, line, 0)
		return
	}
	g := &p.raws[len(p.raws)-1]
	if g.delayLine != 0 {
		p.note(p.line, NoteCrawlDelayRepeated, line, g.delayLine)
		return
	}
	g.delay, g.delayLine = d, p.line
}

// note records a note unless the note limit has been reached.
func (p *parser) note(line int, kind NoteKind, text string, ref int) {
	if len(p.r.notes) >= p.cfg.maxNotes {
		if !p.dropped {
			p.dropped = true
			p.r.notes = append(p.r.notes, Note{Line: line, Kind: NoteTooManyNotes})
		}
		return
	}
	p.r.notes = append(p.r.notes, Note{Line: line, Kind: kind, Text: noteText(text), Ref: ref})
}

// finish closes the last group, merges groups naming the same agent
// (rule 5) and builds the lookup For uses.
func (p *parser) finish() {
	if p.state == stateAgents {
		// User-agent lines not followed by a rule line form no group
		// (seed: a group is one or more user agent lines followed by one
		// or more directive lines); the crawler falls back as if they
		// were not there.
		g := p.raws[len(p.raws)-1]
		p.note(g.firstLine, NoteAgentNoRules, p.lineText(g), 0)
		p.raws = p.raws[:len(p.raws)-1]
		p.agents, p.agentRaw = p.agents[:g.agentLo], p.agentRaw[:g.agentLo]
	}
	if p.merges() {
		p.buildMerged()
	} else {
		p.buildSimple()
	}
	slices.SortStableFunc(p.r.notes, func(a, b Note) int { return a.Line - b.Line })
}

// lineText returns the text of a raw group's first User-agent line for a
// note, or "" when it had none recorded (an empty value).
func (p *parser) lineText(g rawGroup) string {
	if g.agentHi > g.agentLo && p.agents[g.agentLo].Line == g.firstLine {
		return p.agentRaw[g.agentLo]
	}
	return ""
}

// starKey is the agentKey of the * line. No product token equals it, as a
// product token never holds a blank.
const starKey = " *"

// agentKey is the identity of an agent line for merging and lookup: its
// lower-cased product token, or starKey for the * line.
func agentKey(a Agent) string {
	if a.Name == "*" {
		return starKey
	}
	return lowerASCII(productToken(a.Name))
}

// merges reports whether some agent is named by more than one group,
// noting repeated agents along the way.
func (p *parser) merges() bool {
	type seen struct{ raw, line int }
	first := make(map[string]seen, len(p.agents))
	p.keys = make([]string, len(p.agents))
	merged := false
	for gi, g := range p.raws {
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			a := p.agents[ai]
			k := agentKey(a)
			p.keys[ai] = k
			s, ok := first[k]
			switch {
			case !ok:
				first[k] = seen{gi, a.Line}
			case s.raw == gi:
				p.note(a.Line, NoteAgentRepeated, p.agentRaw[ai], s.line)
			default:
				p.note(a.Line, NoteAgentMerged, p.agentRaw[ai], s.line)
				merged = true
			}
		}
	}
	return merged
}

// buildSimple builds the groups when no agent is named by two groups: each
// written group with an agent is a group of its own.
func (p *parser) buildSimple() {
	for _, g := range p.raws {
		if g.agentHi == g.agentLo {
			continue // only empty User-agent values: names nobody
		}
		b := newGroupBody(p.agents[g.agentLo:g.agentHi:g.agentHi],
			p.rules[g.ruleLo:g.ruleHi:g.ruleHi], g.delay, g.delayLine != 0)
		p.addGroup(b, p.keys[g.agentLo:g.agentHi])
	}
}

// buildMerged builds the groups when some agent is named by several
// groups (rule 5). The group of an agent is the union of the written groups
// naming it; agents named by exactly the same written groups share one.
func (p *parser) buildMerged() {
	type keyInfo struct {
		raws   []int // written groups naming the key, ascending
		agents []int // agent lines naming the key
	}
	var order []string
	info := map[string]*keyInfo{}
	for gi, g := range p.raws {
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			k := p.keys[ai]
			ki := info[k]
			if ki == nil {
				ki = &keyInfo{}
				info[k] = ki
				order = append(order, k)
			}
			if len(ki.raws) == 0 || ki.raws[len(ki.raws)-1] != gi {
				ki.raws = append(ki.raws, gi)
			}
			ki.agents = append(ki.agents, ai)
		}
	}
	// Keys are in order of first appearance, so bodies are too.
	type pending struct{ agents, raws []int }
	var bodies []*pending
	bySig := map[string]*pending{}
	for _, k := range order {
		ki := info[k]
		sig := string(encodeInts(ki.raws))
		pb := bySig[sig]
		if pb == nil {
			pb = &pending{raws: ki.raws}
			bySig[sig] = pb
			bodies = append(bodies, pb)
		}
		pb.agents = append(pb.agents, ki.agents...)
	}
	for _, pb := range bodies {
		slices.Sort(pb.agents) // agent lines are stored in line order
		agents := make([]Agent, len(pb.agents))
		keys := make([]string, len(pb.agents))
		for i, ai := range pb.agents {
			agents[i], keys[i] = p.agents[ai], p.keys[ai]
		}
		var rules []Rule
		var delay time.Duration
		hasDelay := false
		for _, gi := range pb.raws {
			g := p.raws[gi]
			rules = append(rules, p.rules[g.ruleLo:g.ruleHi]...)
			if !hasDelay && g.delayLine != 0 {
				delay, hasDelay = g.delay, true
			}
		}
		p.addGroup(newGroupBody(agents, rules, delay, hasDelay), keys)
	}
}

// encodeInts encodes a list of non-negative ints as a map key.
func encodeInts(v []int) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, n := range v {
		b = append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return b
}

// addGroup appends a merged group to the result and indexes its agents;
// keys[i] is the agentKey of b.agents[i]. A key is in one group only, so
// repeats can only be within b.
func (p *parser) addGroup(b *groupBody, keys []string) {
	view := &b.byStar
	start := len(p.r.names)
	for _, k := range keys {
		if k == starKey {
			if p.r.star == nil {
				p.r.star = &b.byStar
			}
			continue
		}
		view = &b.byName
		if !slices.ContainsFunc(p.r.names[start:], func(n agentName) bool { return n.key == k }) {
			p.r.names = append(p.r.names, agentName{key: k, group: &b.byName})
		}
	}
	p.r.groups = append(p.r.groups, view)
}
