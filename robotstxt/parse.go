package robotstxt

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Parse parses a robots.txt body (docs/robots-rules.md section A). It never
// fails (rule 11): any byte sequence gives a rule set, possibly empty, and
// the lines it ignored or found suspicious are reported by Robots.Notes.
// Only the first DefaultMaxBytes octets are read unless MaxBytes says
// otherwise (rule 10). Parse does not keep body; the caller may reuse it.
func Parse(body []byte, opts ...Option) *Robots {
	// The parser's scratch state dies with this call; only the Robots
	// is kept.
	p := parser{cfg: newConfig(opts), r: new(Robots)}
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
	return p.r
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
	r       *Robots // the result
	cutLast bool    // the size limit cut the last line

	line     int // current line number
	state    parseState
	raws     []rawGroup
	agents   []Agent     // non-empty User-agent lines, in order
	agentRaw []string    // the same lines as written, for notes
	keys     []string    // agentKey of each agent line, set by merges
	kid      []int32     // a number for each distinct key, by agent line, set by merges
	nraw     []int       // by key number: how many written groups name it
	bodies   []groupBody // allocated, not yet used, by newBody
	indexed  []bool      // by key number: the key is in r.names
	rules    []Rule
	// sitemapLines[i] is the line of Sitemaps()[i]; sitemapIndex maps
	// each URL to its line once there are more than sitemapScanMax.
	sitemapLines []int
	sitemapIndex map[string]int
	dropped      bool // the note limit was reached
}

// run parses the text s, the body within the size limit.
func (p *parser) run(s string) {
	s = skipBOM(s)
	// Most lines of most files are rules: room for one per line saves
	// growing the slice many times; see finish for the waste.
	lines := strings.Count(s, "\n")
	if lines == 0 {
		lines = strings.Count(s, "\r")
	}
	p.rules = make([]Rule, 0, lines+1)
	badUTF8 := !utf8.ValidString(s)
	content := false
	sc := newLineScanner(s)
	for {
		l, ok := sc.next()
		if !ok {
			break
		}
		p.line++
		if !l.terminated && p.cutLast {
			p.note(p.line, NoteCutByLimit, l.text, 0)
			break
		}
		if badUTF8 && !utf8.ValidString(l.text) {
			p.note(p.line, NoteInvalidUTF8, l.text, 0)
			badUTF8 = false
		}
		if !content {
			if t := trimBlank(l.text); t != "" {
				content = true
				if t[0] == '<' {
					p.note(p.line, NoteHTML, l.text, 0)
				}
			}
		}
		p.parseLine(l)
	}
	p.r.lines = p.line
}

// parseLine handles one line: <field>:<value>[#comment] (rule 2).
func (p *parser) parseLine(l scannedLine) {
	line, text, colon := l.text, l.text, l.colon
	if l.hash >= 0 {
		text = text[:l.hash]
	}
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
		p.sitemap(line, value)
	case fieldCrawlDelay:
		p.crawlDelay(line, value)
	default:
		p.note(p.line, NoteUnknownField, line, 0)
	}
}

// skipBOM drops a UTF-8 byte order mark at the start of s, and a
// truncated one: "EF BB" or "EF" not followed by the rest of the mark
// loses only those octets (rule 1). "EF 11 BF" loses "EF" only, leaving a
// garbled first line.
func skipBOM(s string) string {
	const bom = "\uFEFF"
	for i := 0; i < len(bom); i++ {
		if i == len(s) || s[i] != bom[i] {
			return s[i:]
		}
	}
	return s[len(bom):]
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
	switch {
	case IsStarAgent(value): // rule 6: the * group, whatever follows "* "
		if value != "*" {
			p.note(p.line, NoteAgentStarText, line, 0)
		}
	case AgentToken(value) != "":
		if strings.IndexByte(value, '*') >= 0 {
			p.note(p.line, NoteAgentWildcard, line, 0)
		}
	case value != "" && value[0] == '*': // "**", "*foo": names nobody
		p.note(p.line, NoteAgentStarJoined, line, 0)
		return
	default:
		p.note(p.line, NoteEmptyAgent, line, 0)
		return
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

// sitemap handles a Sitemap line: global wherever it is (rule 8).
func (p *parser) sitemap(line, value string) {
	if !isAbsoluteURL(value) {
		p.note(p.line, NoteSitemapNotAbsolute, line, 0)
		return
	}
	if first, ok := p.sitemapLine(value); ok {
		p.note(p.line, NoteSitemapRepeated, line, first)
		return
	}
	p.r.sitemaps = append(p.r.sitemaps, value)
	p.sitemapLines = append(p.sitemapLines, p.line)
	switch {
	case p.sitemapIndex != nil:
		p.sitemapIndex[value] = p.line
	case len(p.r.sitemaps) > sitemapScanMax:
		p.sitemapIndex = make(map[string]int, 2*len(p.r.sitemaps))
		for i, u := range p.r.sitemaps {
			if _, ok := p.sitemapIndex[u]; !ok {
				p.sitemapIndex[u] = p.sitemapLines[i]
			}
		}
	}
}

// sitemapScanMax is the number of sitemaps up to which repeats are found
// by a scan rather than a map.
const sitemapScanMax = 16

// sitemapLine returns the line of the Sitemap line that listed u, if one
// did.
func (p *parser) sitemapLine(u string) (int, bool) {
	if p.sitemapIndex != nil {
		line, ok := p.sitemapIndex[u]
		return line, ok
	}
	for i, s := range p.r.sitemaps {
		if s == u {
			return p.sitemapLines[i], true
		}
	}
	return 0, false
}

// isAbsoluteURL reports whether v is an absolute URL with a host: a scheme
// (a letter, then letters, digits, "+", "-" or "."), "://", and an
// authority whose host is not empty, with no blank or control octet
// anywhere (RFC 3986 §3).
func isAbsoluteURL(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] == 0x7F {
			return false
		}
	}
	colon := strings.Index(v, "://")
	if colon <= 0 || !isSchemeStart(v[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		if !isSchemeStart(v[i]) && !('0' <= v[i] && v[i] <= '9') && v[i] != '+' && v[i] != '-' && v[i] != '.' {
			return false
		}
	}
	authority := v[colon+3:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	host := authority[strings.LastIndexByte(authority, '@')+1:]
	return host != "" && host[0] != ':'
}

// isSchemeStart reports whether c is an ASCII letter.
func isSchemeStart(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

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
		// User-agent lines not followed by a rule line still form a group
		// that names its agents and allows them everything (rule 4); the
		// note tells the site owner, who may have meant otherwise.
		g := p.raws[len(p.raws)-1]
		p.note(g.firstLine, NoteAgentNoRules, p.lineText(g), 0)
	}
	if cap(p.rules) > 2*len(p.rules)+64 {
		// Do not keep room for a rule per line of a file that is mostly
		// something else (comments, HTML).
		p.rules = slices.Clip(slices.Clone(p.rules))
	}
	p.r.groups = make([]*Group, 0, len(p.raws))
	p.r.names = make([]agentName, 0, len(p.agents))
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

// starKey is the agentKey of a line naming the * group. No agent token
// equals it, as an agent token never holds a blank.
const starKey = " *"

// agentKey is the identity of an agent line for merging and lookup: starKey
// for a line naming the * group (IsStarAgent), else its agent token
// (AgentToken), compared with ASCII case folding.
func agentKey(a Agent) string {
	if IsStarAgent(a.Name) {
		return starKey
	}
	return AgentToken(a.Name)
}

// agentScanMax is the number of User-agent lines up to which merges finds
// repeated agents by comparing every pair rather than with a map.
const agentScanMax = 32

// merges reports whether some agent is named by more than one group,
// noting repeated agents along the way. It sets p.keys and p.kid, and
// p.nraw to the number of written groups naming each agent.
func (p *parser) merges() bool {
	n := len(p.agents)
	p.keys = make([]string, n)
	p.kid = make([]int32, n)
	var index map[string]int32
	if n > agentScanMax {
		index = make(map[string]int32, n)
	}
	firstLine, lastRaw := make([]int, 0, n), make([]int, 0, n)
	p.nraw = make([]int, 0, n)
	merged := false
	for gi, g := range p.raws {
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			a := p.agents[ai]
			k := agentKey(a)
			p.keys[ai] = k
			id, ok := int32(0), false
			if index != nil {
				id, ok = index[lowerASCII(k)]
			} else {
				for aj := range ai {
					if equalFold(p.keys[aj], k) {
						id, ok = p.kid[aj], true
						break
					}
				}
			}
			switch {
			case !ok:
				id = int32(len(p.nraw))
				if index != nil {
					index[lowerASCII(k)] = id
				}
				p.nraw = append(p.nraw, 1)
				firstLine, lastRaw = append(firstLine, a.Line), append(lastRaw, gi)
			case lastRaw[id] == gi:
				p.note(a.Line, NoteAgentRepeated, p.agentRaw[ai], firstLine[id])
			default:
				p.note(a.Line, NoteAgentMerged, p.agentRaw[ai], firstLine[id])
				p.nraw[id]++
				lastRaw[id] = gi
				merged = true
			}
			p.kid[ai] = id
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
		b := p.newBody(p.agents[g.agentLo:g.agentHi:g.agentHi],
			p.rules[g.ruleLo:g.ruleHi:g.ruleHi], g.delay, g.delayLine != 0)
		p.addGroup(b, p.keys[g.agentLo:g.agentHi], p.kid[g.agentLo:g.agentHi])
	}
}

// buildMerged builds the groups when some agent is named by several
// groups (rule 5). The group of an agent is the union of the written groups
// naming it; agents named by exactly the same written groups share one.
// An agent named by one written group shares it with the other such agents
// of that group, as in buildSimple; the few agents named more than once are
// grouped by the list of written groups that name them.
func (p *parser) buildMerged() {
	type body struct {
		first  int   // line of the first User-agent line
		raws   []int // written groups, ascending
		agents []int // agent lines
	}
	var bodies []*body
	// Agents named by one written group.
	for gi, g := range p.raws {
		var b *body
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			if p.nraw[p.kid[ai]] != 1 {
				continue
			}
			if b == nil {
				b = &body{first: p.agents[ai].Line, raws: []int{gi}}
				bodies = append(bodies, b)
			}
			b.agents = append(b.agents, ai)
		}
	}
	// Agents named by several: their lists of written groups.
	raws := map[int32][]int{}
	var order []int32
	for gi, g := range p.raws {
		for ai := g.agentLo; ai < g.agentHi; ai++ {
			id := p.kid[ai]
			if p.nraw[id] == 1 {
				continue
			}
			l, seen := raws[id]
			if !seen {
				order = append(order, id)
			}
			if len(l) == 0 || l[len(l)-1] != gi {
				raws[id] = append(l, gi)
			}
		}
	}
	bySig := map[string]*body{}
	bodyOf := map[int32]*body{}
	for _, id := range order {
		sig := string(encodeInts(raws[id]))
		b := bySig[sig]
		if b == nil {
			b = &body{first: int(^uint(0) >> 1), raws: raws[id]}
			bySig[sig] = b
			bodies = append(bodies, b)
		}
		bodyOf[id] = b
	}
	for ai := range p.agents {
		if b := bodyOf[p.kid[ai]]; b != nil {
			b.agents = append(b.agents, ai) // in line order
			b.first = min(b.first, p.agents[ai].Line)
		}
	}
	slices.SortStableFunc(bodies, func(a, b *body) int { return a.first - b.first })
	for _, b := range bodies {
		var agents []Agent
		var keys []string
		var kids []int32
		if lo, hi := b.agents[0], b.agents[len(b.agents)-1]+1; hi-lo == len(b.agents) {
			agents, keys, kids = p.agents[lo:hi:hi], p.keys[lo:hi], p.kid[lo:hi] // contiguous lines
		} else {
			agents, keys, kids = make([]Agent, len(b.agents)), make([]string, len(b.agents)), make([]int32, len(b.agents))
			for i, ai := range b.agents {
				agents[i], keys[i], kids[i] = p.agents[ai], p.keys[ai], p.kid[ai]
			}
		}
		var rules []Rule
		var delay time.Duration
		hasDelay := false
		for _, gi := range b.raws {
			g := p.raws[gi]
			if len(b.raws) == 1 {
				rules = p.rules[g.ruleLo:g.ruleHi:g.ruleHi]
			} else {
				rules = append(rules, p.rules[g.ruleLo:g.ruleHi]...)
			}
			if !hasDelay && g.delayLine != 0 {
				delay, hasDelay = g.delay, true
			}
		}
		p.addGroup(p.newBody(agents, rules, delay, hasDelay), keys, kids)
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
// keys[i] and kids[i] are the agentKey and key number of b.agents[i]. A
// key belongs to one group only; each is indexed once.
func (p *parser) addGroup(b *groupBody, keys []string, kids []int32) {
	if p.indexed == nil {
		p.indexed = make([]bool, len(p.nraw))
	}
	view := &b.byStar
	for i, k := range keys {
		if k == starKey {
			if p.r.star == nil {
				p.r.star = &b.byStar
			}
			continue
		}
		view = &b.byName
		if !p.indexed[kids[i]] {
			p.indexed[kids[i]] = true
			p.r.names = append(p.r.names, agentName{key: k, group: &b.byName})
		}
	}
	p.r.groups = append(p.r.groups, view)
}

// newBody returns a group body from a batch allocated for the groups
// still to come, so that a file with hundreds of groups does not allocate
// each one.
func (p *parser) newBody(agents []Agent, rules []Rule, delay time.Duration, hasDelay bool) *groupBody {
	if len(p.bodies) == 0 {
		p.bodies = make([]groupBody, max(len(p.raws), 1))
	}
	b := &p.bodies[0]
	p.bodies = p.bodies[1:]
	b.init(agents, rules, delay, hasDelay)
	return b
}
